// The local stack runs every function in one process, and many invocations of one function at once: as
// Lambda Managed Instances do, not as classic Lambda, which gives each invocation its container alone.
// Powertools keeps what belongs to one invocation (the logger's request id and caller, a batch's failures,
// the metrics to flush) apart from the others' only in the invocation's own context of the InvokeStore,
// and only when AWS_LAMBDA_MAX_CONCURRENCY says invocations share the process. Without both, one
// invocation's end dropped the request id from the lines of another still running, and one batch's
// failures could be cleared by another batch, so its message was deleted instead of redelivered.
import { AsyncLocalStorage } from 'node:async_hooks';
import { channel } from 'node:diagnostics_channel';
import { InvokeStoreBase } from '@aws/lambda-invoke-store';
import type { Context } from 'aws-lambda';

type InvocationContext = Record<string | symbol, unknown>;

/**
 * The runtime's store, with one difference: code outside any invocation (a module's first import, the
 * stack's own pollers) shares one context, as every line of a classic Lambda container does, where the
 * library's store for concurrent invocations refuses to be written outside one.
 */
class LocalInvokeStore extends InvokeStoreBase {
  readonly #invocations = new AsyncLocalStorage<InvocationContext>();
  readonly #outside: InvocationContext = {};

  getContext(): InvocationContext {
    return this.#invocations.getStore() ?? this.#outside;
  }

  hasContext(): boolean {
    return this.#invocations.getStore() !== undefined;
  }

  get<T = unknown>(key: string | symbol): T | undefined {
    return this.getContext()[key] as T | undefined;
  }

  set<T = unknown>(key: string | symbol, value: T): void {
    if (this.isProtectedKey(key)) throw new Error(`${String(key)} is the runtime's to set`);
    this.getContext()[key] = value;
  }

  run<T>(context: InvocationContext, fn: () => T): T {
    return this.#invocations.run(context, fn);
  }
}

function invokeStore(): InvokeStoreBase {
  globalThis.awslambda ??= {} as typeof awslambda;
  if (!(globalThis.awslambda.InvokeStore instanceof LocalInvokeStore)) {
    globalThis.awslambda.InvokeStore = new LocalInvokeStore();
    // Any value turns Powertools' per-invocation state on; the figure is the processes', not a limit.
    process.env.AWS_LAMBDA_MAX_CONCURRENCY ??= '1000';
  }
  return globalThis.awslambda.InvokeStore;
}

// At import, before any function's module: Powertools then reads every invocation's state from the store.
invokeStore();

/** Where the invocation keeps the name of the function it runs (the bench's calls by function). */
const FUNCTION_NAME = Symbol('functionName');

/** Each invocation's function and wall time, for whoever listens (the bench's Lambda GB-seconds). */
export const INVOCATION_CHANNEL = 'payments-gateway:local:invocation';
export interface InvocationTime {
  functionName: string;
  ms: number;
}
const invocations = channel(INVOCATION_CHANNEL);

/** Calls `handler` as the runtime would: in a context of this invocation's own. */
export function invokeIsolated<Event, Result>(
  handler: (event: Event, context: Context) => Promise<Result>,
  event: Event,
  context: Context,
): Promise<Result> {
  const requestId = InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID;
  const started = performance.now();
  const timed = () => {
    if (invocations.hasSubscribers)
      invocations.publish({
        functionName: context.functionName,
        ms: performance.now() - started,
      } satisfies InvocationTime);
  };
  return invokeStore()
    .run({ [requestId]: context.awsRequestId, [FUNCTION_NAME]: context.functionName }, () =>
      handler(event, context),
    )
    .finally(timed);
}

/** The function whose invocation runs the current code, or undefined outside one (the stack's pollers). */
export const invokedFunction = (): string | undefined => invokeStore().get<string>(FUNCTION_NAME);
