// One process for many runs of the admin CLI (test/support/admin-batch.ts starts it): reads a JSON array
// of argument lists on stdin, runs scripts/admin.ts once for each, one after the other, and prints a JSON
// array of what each run's own process would have shown: its exit code, stdout and stderr. Each run
// imports the script afresh (its arguments are read at import) with its arguments as process.argv; what
// a run prints after it exits is dropped, as a process that has exited prints nothing more.
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { type AdminRun, RESULTS_MARKER } from './admin-batch.ts';

/** What process.exit throws inside a run: the run ends there, with this code. */
class Exited extends Error {
  readonly code: number;
  constructor(code: number) {
    super(`exited with ${code}`);
    this.code = code;
  }
}

const cli = new URL('../../scripts/admin.ts', import.meta.url);
const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const argLists = JSON.parse(Buffer.concat(chunks).toString('utf8')) as string[][];

const env = { ...process.env };
const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
const exit = process.exit;
// A run may leave work behind it that rejects with its exit (a refused command's pending requests).
process.on('unhandledRejection', (reason) => {
  if (!(reason instanceof Exited)) throw reason;
});

const runs: AdminRun[] = [];
for (const [index, args] of argLists.entries()) {
  const run: AdminRun = { args, code: 0, stdout: '', stderr: '' };
  let exited: number | undefined;
  const capture =
    (stream: 'stdout' | 'stderr') =>
    (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      if (exited === undefined)
        run[stream] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    };
  process.stdout.write = capture('stdout') as typeof process.stdout.write;
  process.stderr.write = capture('stderr') as typeof process.stderr.write;
  process.exit = ((code?: number | string | null) => {
    exited ??= Number(code ?? process.exitCode ?? 0);
    throw new Exited(exited);
  }) as typeof process.exit;
  process.exitCode = undefined;
  process.argv = [process.execPath, fileURLToPath(cli), ...args];
  try {
    await import(`${cli.href}?run=${index}`);
  } catch (error) {
    if (exited === undefined) {
      // What Node prints for an error nothing caught, before it exits 1.
      run.stderr += `${inspect(error)}\n\nNode.js ${process.version}\n`;
      exited = 1;
    }
  }
  process.stdout.write = writes.stdout;
  process.stderr.write = writes.stderr;
  process.exit = exit;
  run.code = exited ?? Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  // A run's --stage points the environment at that stage: the next run starts from the batch's.
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);
  runs.push(run);
}
// After a marker: anything printed between runs (by work a run left behind) comes before it.
process.stdout.write(`\n${RESULTS_MARKER}${JSON.stringify(runs)}`);
