// A function bundle run in a child process of its own (bench/function-host.mjs), as Lambda runs one
// instance of a function: its handler stands in for the source's in the local stack (local/
// function-host.ts), one invocation at a time, and every invocation's figures are kept.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Context } from 'aws-lambda';
import type { CallCounts } from './aws-calls.ts';

/** What the import or an invocation cost (CPU ms, all threads) and what the process held after it (MiB). */
export interface StepFigures {
  cpuMs: number;
  rssMb: number;
  heapUsedMb: number;
  /** The process's peak RSS so far. */
  peakRssMb: number;
}

/** An invocation's figures and the calls it made (by name, bench/aws-calls.ts). */
export interface InvocationFigures extends StepFigures {
  calls: CallCounts;
}

export interface HostedFunction {
  name: string;
  /** Resolves once the bundle is imported; rejects when the process could not import it. */
  loaded: Promise<StepFigures>;
  /** Invokes the handler in the child, after the invocations before it (one instance, one event at a time). */
  handler(event: unknown, context: Context): Promise<unknown>;
  invocations: InvocationFigures[];
  /** Invocations whose handler threw (each also fails its caller, as a Lambda error would). */
  errors: string[];
  stop(): Promise<void>;
}

type Answer = { kind: 'loaded' } & StepFigures;
type Invoked = { kind: 'invoked'; id: number; result?: unknown; error?: string } & InvocationFigures;

const hostScript = fileURLToPath(new URL('function-host.mjs', import.meta.url));
/** Kept of the child's stderr, to say why it died. */
const STDERR_TAIL_CHARS = 2000;

/**
 * --enable-source-maps, and with BENCH_CPU_PROF=<folder> a V8 CPU profile of every hosted function,
 * written there when the host stops (`--cpu-prof`; open it in Chrome's DevTools): where an invocation's
 * CPU goes.
 */
function nodeOptions(): string {
  const folder = process.env.BENCH_CPU_PROF;
  return ['--enable-source-maps', ...(folder ? ['--cpu-prof', `--cpu-prof-dir=${folder}`] : [])].join(' ');
}

/**
 * Starts `bundleFile` (undefined: Node alone, the baseline) in a fresh Node process with `env` and the
 * NODE_OPTIONS infra gives every function (infra/constructs/bundled-function.ts: --enable-source-maps).
 */
export function hostFunction(
  name: string,
  bundleFile: string | undefined,
  env: Readonly<Record<string, string>>,
): HostedFunction {
  const child = fork(hostScript, bundleFile ? [bundleFile] : [], {
    execPath: process.execPath,
    execArgv: [],
    env: {
      PATH: process.env.PATH ?? '',
      ...env,
      NODE_OPTIONS: nodeOptions(),
      // The host marks its cold start beside the profile (bench/cold-profile.ts reads both).
      ...(process.env.BENCH_CPU_PROF ? { BENCH_CPU_PROF: process.env.BENCH_CPU_PROF } : {}),
    },
    // The functions' logs are not the subject here; stderr is kept for a crash's cause.
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
  });
  const pending = new Map<number, PromiseWithResolvers<Invoked>>();
  const loading = Promise.withResolvers<StepFigures>();
  // A process that dies before anyone awaits its load must not end the bench with an unhandled rejection.
  loading.promise.catch(() => undefined);
  let exited: Error | undefined;
  child.on('message', (message: Answer | Invoked) => {
    if (message.kind === 'loaded') loading.resolve(message);
    else pending.get(message.id)?.resolve(message);
  });
  child.on('exit', (code, signal) => {
    exited = new Error(`${name} exited (${signal ?? `code ${code}`}): ${stderr.trim()}`);
    loading.reject(exited);
    for (const waiting of pending.values()) waiting.reject(exited);
  });

  const invocations: InvocationFigures[] = [];
  const errors: string[] = [];
  let nextId = 0;
  const invokeOnce = async (event: unknown, context: Context): Promise<unknown> => {
    await loading.promise;
    if (exited) throw exited;
    const id = nextId++;
    const answer = Promise.withResolvers<Invoked>();
    pending.set(id, answer);
    // The context's functions do not cross the channel: the host makes its own countdown.
    child.send({ id, event, context, timeoutMs: context.getRemainingTimeInMillis() });
    const { result, error, cpuMs, rssMb, heapUsedMb, peakRssMb, calls } = await answer.promise.finally(() =>
      pending.delete(id),
    );
    invocations.push({ cpuMs, rssMb, heapUsedMb, peakRssMb, calls });
    if (error === undefined) return result;
    errors.push(error);
    throw new Error(`${name} failed: ${error}`);
  };
  let queue: Promise<unknown> = Promise.resolve();
  return {
    name,
    loaded: loading.promise,
    invocations,
    errors,
    handler: (event, context) => {
      const invocation = queue.then(() => invokeOnce(event, context));
      queue = invocation.catch(() => undefined);
      return invocation;
    },
    stop: async () => {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    },
  };
}
