import { mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { functionMemory, memoryRule } from '../infra/function-memory.ts';
import { lambdaContext } from '../local/lambda-event.ts';
import { buildColdFloor } from './bundles.ts';
import { targetOf } from './cold-loads.ts';
import { driveWorkload, WORKLOAD_CAP_MS } from './function-workload.ts';
import { type HostedFunction, hostFunction, type StepFigures } from './hosted-function.ts';
import { runIfMain, runSectionProcess, startHostedStack } from './hosted-stack.ts';
import { fixed, percentile, table } from './stats.ts';

/** The build, the stack's start and stop, beside the workload: past this the run is stopped (SIGTERM)... */
const RUN_CAP_MS = WORKLOAD_CAP_MS + 90_000;
/** ...and its own clean-up (the stack, the hosts) has this long before SIGKILL. */
const KILL_GRACE_MS = 20_000;
/** The most the section can take (bench/run.ts adds it to its hard cap). */
export const FUNCTION_MEMORY_CAP_MS = RUN_CAP_MS + KILL_GRACE_MS;
const BASELINE = 'node alone (no bundle)';
/** bench/cold-floor-handler.ts, invoked once: a GetItem of the stack's DynamoDB, the least a request does. */
const FLOOR = 'floor (one GetItem)';
const mb = (value: number) => fixed(value, 1);

/** A bundle's figures: its import, its first invocation, the warm ones after it. */
function figuresOf(h: HostedFunction, loaded: StepFigures | undefined) {
  const [first, ...warm] = h.invocations;
  const cpu = warm.map((i) => i.cpuMs).sort((a, b) => a - b);
  return {
    loaded,
    first,
    cpuP50Ms: percentile(cpu, 50),
    cpuP99Ms: percentile(cpu, 99),
    // The peak so far is in every answer: the last one holds the whole run's.
    peakRssMb: (h.invocations.at(-1) ?? loaded)?.peakRssMb ?? Number.NaN,
    heapUsedMb: Math.max(loaded?.heapUsedMb ?? Number.NaN, ...h.invocations.map((i) => i.heapUsedMb)),
  };
}

async function report(
  hosted: HostedFunction[],
  references: HostedFunction[],
  notes: string[],
): Promise<void> {
  const rows = await Promise.all(
    [...hosted, ...references].map(async (h) => ({
      h,
      ...figuresOf(h, await h.loaded.catch(() => undefined)),
    })),
  );
  // What a user waits for on a cold start: the import and the first request, in CPU.
  const coldOf = (r: (typeof rows)[number]) =>
    (r.loaded?.cpuMs ?? Number.NaN) + (r.first?.cpuMs ?? Number.NaN);
  const floorRow = rows.find((r) => r.h.name === FLOOR);
  const floorCold = floorRow ? coldOf(floorRow) : Number.NaN;
  console.log(
    '\n== 9. Function memory: each bundle in a process of its own, invoked by the local stack (MiB; CPU ms)',
  );
  console.log(
    table(
      [
        'function',
        'n',
        'errors',
        'cold RSS',
        'peak RSS',
        'heap',
        'load cpu',
        'cpu 1st',
        'cold cpu',
        'x floor',
        'target',
        'cpu p50',
        'cpu p99',
        'rule MB',
        'stack MB',
      ],
      rows.map((r) => [
        r.h.name,
        String(r.h.invocations.length),
        String(r.h.errors.length),
        mb(r.loaded?.rssMb ?? Number.NaN),
        mb(r.peakRssMb),
        mb(r.heapUsedMb),
        fixed(r.loaded?.cpuMs ?? Number.NaN, 1),
        fixed(r.first?.cpuMs ?? Number.NaN, 1),
        fixed(coldOf(r), 1),
        r.first ? `${fixed(coldOf(r) / floorCold, 2)}x` : '-',
        // The cold-load limits of section 8 (bench/cold-loads.ts), held to the import and first request.
        !r.first || r.h.name === FLOOR
          ? '-'
          : `<= ${targetOf(r.h.name)}x ${coldOf(r) / floorCold <= targetOf(r.h.name) ? 'met' : 'NOT MET'}`,
        fixed(r.cpuP50Ms, 1),
        fixed(r.cpuP99Ms, 1),
        // The references are no functions of ours: no rule for them.
        r.first && r.h.name !== FLOOR ? String(memoryRule(r.h.name, r)) : '-',
        String(functionMemory[r.h.name] ?? '-'),
      ]),
    ),
  );
  console.log(['', ...notes].join('\n'));
  for (const h of hosted) if (h.errors[0]) console.log(`${h.name}: first error ${h.errors[0].slice(0, 300)}`);
}

/** The whole measurement, in this process: build, stack, workload, figures. */
async function measureHere(): Promise<void> {
  const { stack, entries, hosted, stop } = await startHostedStack('memory');
  const floorDir = join(
    fileURLToPath(new URL('..', import.meta.url)),
    '.local',
    `bench-floor-${process.pid}`,
  );
  try {
    const baseline = hostFunction(BASELINE, undefined, stack.env);
    hosted.set(BASELINE, baseline);
    const floorDir = join(
      fileURLToPath(new URL('..', import.meta.url)),
      '.local',
      `bench-floor-${process.pid}`,
    );
    mkdirSync(floorDir, { recursive: true });
    const floor = hostFunction(FLOOR, (await buildColdFloor(floorDir)).outFile, stack.env);
    hosted.set(FLOOR, floor);
    await floor.handler({ id: 'floor' }, lambdaContext('cold-floor'));
    const notes = await driveWorkload(stack);
    const notInvoked = entries.filter((e) => !hosted.has(e.name)).map((e) => e.name);
    await report(
      entries.flatMap((e) => hosted.get(e.name) ?? []),
      [floor, baseline],
      [
        ...notes,
        `cold cpu = load cpu + cpu 1st: the import and the first invocation, what a user waits for on a cold start, in CPU; x floor = that against ${FLOOR} (bench/cold-floor-handler.ts imported and invoked once); target = the limit section 8 holds the function's import to (bench/cold-loads.ts), here held to both.`,
        `Not invoked: ${notInvoked.join(', ') || 'none'}.`,
        `load average ${loadavg()
          .map((l) => fixed(l, 2))
          .join(' ')}`,
      ],
    );
  } finally {
    await stop();
    rmSync(floorDir, { recursive: true, force: true });
  }
}

/** The section, in a process of its own (the stack's configuration is read once per process). */
export const measureFunctionMemory = (): Promise<void> =>
  runSectionProcess(import.meta.url, RUN_CAP_MS, KILL_GRACE_MS, '9. Function memory');

await runIfMain(import.meta.url, measureHere);
