// Bundle sizes and cold module loads of every function against the floor (bench/cold-floor-handler.ts),
// built in the same run with the same esbuild options. The last section of `npm run bench`; run this file
// directly (`node bench/cold-loads.ts`) to measure only this, without a stack.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBareMiddy, buildColdFloor, buildFunctions } from './bundles.ts';
import { coldLoads } from './cold-start.ts';
import { fixed, table } from './stats.ts';

/** Fresh processes per bundle; the median is reported. */
const COLD_RUNS = 9;
/** As Lambda runs the functions (infra/constructs/bundled-function.ts sets NODE_OPTIONS). */
const NODE_FLAGS = ['--enable-source-maps'];

/**
 * Issue #8 §3: how many times the floor's size and load time a function may take, the one place these
 * limits are set (docs/bench.md quotes them). Functions that build and submit ledger transactions carry
 * the Stellar SDK and its XDR; the fallback only answers 404/405. The admin functions are invoked by an
 * operator's CLI, never on a user's request, and the ledger one builds transactions (`channels open`):
 * the workers' limit, not the request path's.
 */
export function targetOf(name: string): number {
  if (name === 'api/fallback') return 1.2;
  if (name === 'api/sandbox' || name.startsWith('workers/') || name.startsWith('admin/')) return 3;
  return 1.5;
}

const ratio = (value: number, floor: number) => `${fixed(value / floor, 2)}x`;

export async function measureBundlesAndColdLoads(
  workDir: string,
  env: Record<string, string>,
): Promise<void> {
  const { sizes } = await buildFunctions();
  const floor = await buildColdFloor(workDir);
  const bare = await buildBareMiddy(workDir);
  const all = [...sizes, floor, bare];
  const loads = await coldLoads(new Map(all.map((s) => [s.name, s.outFile])), env, {
    runs: COLD_RUNS,
    nodeFlags: NODE_FLAGS,
  });
  const loadOf = (name: string) => loads.get(name)?.medianMs ?? Number.NaN;
  const cpuOf = (name: string) => loads.get(name)?.medianCpuMs ?? Number.NaN;
  const floorMs = loadOf(floor.name);
  const floorCpuMs = cpuOf(floor.name);

  console.log(
    `\n== 8. Bundles and cold module loads against the floor (esbuild.config.ts; load = median of ${COLD_RUNS} fresh processes, ms)`,
  );
  console.log(
    table(
      [
        'function',
        'KiB',
        'map KiB',
        'x floor size',
        'load ms',
        'min-max',
        'x floor load',
        'cpu ms',
        'x floor cpu',
        'target',
        'met',
      ],
      all.map((s) => {
        const load = loads.get(s.name);
        const ms = loadOf(s.name);
        const reference = s === floor || s === bare;
        const target = targetOf(s.name);
        const met = s.kib / floor.kib <= target && cpuOf(s.name) / floorCpuMs <= target;
        return [
          s.name,
          fixed(s.kib, 1),
          fixed(s.mapKib, 1),
          ratio(s.kib, floor.kib),
          fixed(ms, 1),
          `${fixed(load?.minMs ?? Number.NaN, 1)}-${fixed(load?.maxMs ?? Number.NaN, 1)}`,
          ratio(ms, floorMs),
          fixed(cpuOf(s.name), 1),
          ratio(cpuOf(s.name), floorCpuMs),
          reference ? '' : `<= ${target}x`,
          reference ? '' : met ? 'met' : 'NOT MET',
        ];
      }),
    ),
  );
  console.log(
    [
      '',
      'floor = bench/cold-floor-handler.ts: a Middy handler with the Powertools Logger and a DynamoDB document',
      'client (GetCommand), bundled with the same options; bare middy = middy().handler(async () => ({ statusCode: 200 })).',
      `load = await import(bundle) in a fresh \`node ${NODE_FLAGS.join(' ')}\` (as Lambda runs it), the bundles taking`,
      'turns, after one discarded round; cpu = CPU time of that import (all threads), which a busy machine inflates',
      'less than wall time. A target holds both the size and the cpu ratio: the work the import does (section 9 holds',
      "the import and first invocation to the same targets, in cpu too); a 60-90 ms import's wall time swings by a",
      'third between processes on 2 cores (min-max), which moves a ratio near its target either way. Environment: the',
      'stack env (TABLE_NAME etc.) with its services stopped.',
    ].join('\n'),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const workDir = join(fileURLToPath(new URL('..', import.meta.url)), '.local', `bench-cold-${process.pid}`);
  mkdirSync(workDir, { recursive: true });
  try {
    // What the functions read at module load (lib/config.ts needs a table name); nothing is called.
    await measureBundlesAndColdLoads(workDir, { TABLE_NAME: 'bench', AWS_REGION: 'us-east-1' });
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
