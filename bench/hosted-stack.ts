// A local stack whose every function is its bundle in a process of its own (bench/hosted-function.ts), as
// Lambda runs them: what one function costs (CPU, memory, calls) is that process's alone. Used by the
// function memory section and the payment CPU section.
import { fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BundleEntry } from '../esbuild.config.ts';
import type { FunctionHost } from '../local/function-host.ts';
import type { LocalStack } from '../local/stack.ts';
import { buildFunctions } from './bundles.ts';
import { type HostedFunction, hostFunction } from './hosted-function.ts';
import { benchLimits } from './lifted-limits.ts';

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
      running = hostFunction(name, entry.outFile, { ...env, ...benchLimits() });
      hosted.set(name, running);
    }
    return running.handler;
  };
  const { startStack } = await import('../local/stack.ts');
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

/**
 * A section that starts a stack of its own, run in a process of its own (the stack's configuration is
 * read once per process): `moduleUrl` forked, SIGTERM past `capMs`, SIGKILL `killGraceMs` later; `title`
 * is printed with how it exited when it fails.
 */
export function runSectionProcess(moduleUrl: string, capMs: number, killGraceMs: number, title: string) {
  return new Promise<void>((resolve) => {
    const child = fork(fileURLToPath(moduleUrl), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const killer = setTimeout(() => {
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), killGraceMs).unref();
    }, capMs);
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      if (code !== 0) console.log(`\n== ${title}: the run exited (${signal ?? `code ${code}`})`);
      resolve();
    });
  });
}

/** Runs a section's `measureHere` when its module is the script node was asked to run; exits with its outcome. */
export async function runIfMain(moduleUrl: string, measureHere: () => Promise<void>): Promise<void> {
  if (!process.argv[1] || fileURLToPath(moduleUrl) !== process.argv[1]) return;
  await measureHere().then(
    () => process.exit(0),
    (error: Error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
