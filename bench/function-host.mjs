// One function bundle in a process of its own, as Lambda's Node.js runtime hosts it: the bundle is imported
// once (the init), then its handler is invoked for each event the parent sends, one at a time, and every
// answer says what the process holds and what the invocation cost. Without a bundle it imports nothing:
// Node alone, the baseline. Started by bench/hosted-function.ts.
//
// Plain JavaScript, not TypeScript: for a .ts file Node would load its type stripper (a WebAssembly module)
// into the very process whose memory is measured.
import { subscribe } from 'node:diagnostics_channel';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const MIB = 1024 * 1024;

/**
 * The peak RSS of this process so far: Linux's VmHWM, in KiB. Not process.resourceUsage().maxRSS: Linux
 * carries a forked child's RSS before its exec into it, so every host would start at the bench's own RSS.
 */
const peakRssMb = () =>
  Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) / 1024;

/** RSS and V8 heap now, and the peak RSS so far. */
const memory = () => ({
  rssMb: process.memoryUsage.rss() / MIB,
  heapUsedMb: process.memoryUsage().heapUsed / MIB,
  peakRssMb: peakRssMb(),
});

/** CPU time since `start`, all threads (Lambda's CPU share is the whole sandbox's). */
const cpuMsSince = (start) => {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
};

/**
 * The outgoing calls of the invocation in progress, by name, as bench/aws-calls.ts names them (one
 * invocation at a time, so every request belongs to it).
 */
let calls = {};
subscribe('http.client.request.start', ({ request }) => {
  const target = request.getHeader('x-amz-target');
  const name =
    typeof target === 'string'
      ? target.replace(/_\d{8}\./, '.').replace(/^AmazonSQS\./, 'SQS.')
      : `${request.method} /${request.path.split(/[/?]/)[1] ?? ''}`;
  calls[name] = (calls[name] ?? 0) + 1;
});
// fetch (undici): Horizon calls of anything still reaching it through fetch (lib/ledger uses node:http).
subscribe('undici:request:create', ({ request }) => {
  const name = `${request.method} /${request.path.split(/[/?]/)[1] ?? ''}`;
  calls[name] = (calls[name] ?? 0) + 1;
});

// Stopped with SIGTERM: exiting through process.exit writes a --cpu-prof profile (BENCH_CPU_PROF).
process.on('SIGTERM', () => process.exit(0));

/**
 * With BENCH_CPU_PROF, when the import and the first invocation began and ended (the monotonic clock a
 * V8 profile's timestamps count, in µs), written beside the profile: a cold start's CPU read apart from
 * the warm invocations' (bench/cold-profile.ts).
 */
const profileFolder = process.env.BENCH_CPU_PROF;
const marks = { bundle: process.argv[2], steps: [] };
const mark = (step) => {
  if (profileFolder && marks.steps.length < 4)
    marks.steps.push({ step, atUs: Number(process.hrtime.bigint() / 1000n) });
};
// Written as the profile is, when the host stops: no file written within the spans it marks.
if (profileFolder)
  process.on('exit', () =>
    writeFileSync(join(profileFolder, `marks-${process.pid}.json`), JSON.stringify(marks)),
  );

const bundle = process.argv[2];
const loading = process.cpuUsage();
mark('import');
const { handler } = bundle ? await import(pathToFileURL(bundle).href) : {};
mark('imported');
process.send({ kind: 'loaded', cpuMs: cpuMsSince(loading), ...memory() });

process.on('message', async ({ id, event, context, timeoutMs }) => {
  const deadline = Date.now() + timeoutMs;
  const started = process.cpuUsage();
  calls = {};
  const answer = { kind: 'invoked', id };
  mark('invocation');
  try {
    answer.result = await handler(event, {
      ...context,
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    });
  } catch (error) {
    answer.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
  }
  mark('invoked');
  process.send({ ...answer, cpuMs: cpuMsSince(started), calls, ...memory() });
});
