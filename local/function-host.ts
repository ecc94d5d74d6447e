// Where the local stack runs a function. By default every handler is the function's source, imported into
// the stack's own process; whoever starts the stack may host a bundle elsewhere instead (bench/
// function-memory.ts runs each bundle in a process of its own, as Lambda runs each function, to measure it).
import type { Context } from 'aws-lambda';

/** Some function's handler, whatever its event: the stack holds a stand-in as the handler its caller expects. */
export type AnyHandler = (event: never, context: Context) => Promise<unknown>;

/**
 * The stand-in for a function, by bundle name (`api/auth`, `workers/ledger-submitter`, `streams/outbox`,
 * `rotation/keys`), given the environment the stack gives its functions; undefined: its source, in process.
 */
export type FunctionHost = (
  bundleName: string,
  env: Readonly<Record<string, string>>,
) => AnyHandler | undefined;
