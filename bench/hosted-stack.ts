// A local stack whose every function is its bundle in a process of its own (bench/hosted-function.ts), as
// Lambda runs them: what one function costs (CPU, memory, calls) is that process's alone. Used by the
// function memory section and the payment CPU section.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BundleEntry } from '../esbuild.config.ts';
import type { FunctionHost } from '../lib/local/function-host.ts';
import type { LocalStack } from '../lib/local/stack.ts';
import { buildFunctions } from './bundles.ts';
import { type HostedFunction, hostFunction } from './hosted-function.ts';

/** As bench/run.ts: the token requests are counted, none refused (the default allows 20 a minute). */
const TOKEN_RATE_LIMIT = '1000000';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface HostedStack {
  stack: LocalStack;
  /** Every bundle esbuild wrote. */
  entries: BundleEntry[];
  /** The hosted functions by bundle name, each started when the stack first asks for it. */
  hosted: Map<string, HostedFunction>;
  /** Stops the stack, then the hosts, and removes the stack's folder; once, however often called. */
  stop(): Promise<void>;
}

/** Builds the bundles and starts a stack of its own (`purpose` names its folder) hosting them. */
export async function startHostedStack(purpose: string): Promise<HostedStack> {
  const dataDir = join(root, '.local', `bench-${purpose}-${process.pid}`);
  const { entries } = await buildFunctions();
  const hosted = new Map<string, HostedFunction>();
  let stack: LocalStack | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await stack?.stop();
      await Promise.all([...hosted.values()].map((h) => h.stop()));
      rmSync(dataDir, { recursive: true, force: true });
    })());
  // bench/run.ts stops a run past its cap: the stack's DynamoDB Local and the hosts go with it.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => void stop().finally(() => process.exit(1)));

  const functionHost: FunctionHost = (name, env) => {
    const entry = entries.find((e) => e.name === name);
    if (!entry) throw new Error(`No bundle ${name}: the stack asked for a function esbuild did not build`);
    let running = hosted.get(name);
    if (!running) {
      running = hostFunction(name, entry.outFile, { ...env, TOKEN_RATE_LIMIT });
      hosted.set(name, running);
    }
    return running.handler;
  };
  const { startStack } = await import('../lib/local/stack.ts');
  try {
    stack = await startStack({
      port: 0,
      dataDir,
      dynamoDbDir: join(root, '.local', 'dynamodb'),
      functionHost,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { stack, entries, hosted, stop };
}
