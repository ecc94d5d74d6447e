// Cold module load: a fresh Node process times `await import(bundle)`, as a Lambda init would.
import { execFile } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { median } from './stats.ts';

const run = promisify(execFile);

export interface ColdLoad {
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** CPU time of the import (all threads), median: what a busy machine inflates least. */
  medianCpuMs: number;
}

/** Wall and CPU milliseconds of one import in a fresh process. */
async function loadOnce(
  file: string,
  env: Record<string, string>,
  nodeFlags: string[],
): Promise<{ ms: number; cpuMs: number }> {
  const script = [
    'const c = process.cpuUsage(); const t = performance.now();',
    `await import(${JSON.stringify(pathToFileURL(file).href)});`,
    'const u = process.cpuUsage(c); console.log(performance.now() - t, (u.user + u.system) / 1000);',
  ].join(' ');
  const { stdout } = await run(process.execPath, [...nodeFlags, '--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  const [ms, cpuMs] = (stdout.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
  return { ms: ms ?? Number.NaN, cpuMs: cpuMs ?? Number.NaN };
}

/**
 * Median over `runs` fresh processes per file, after one discarded round that warms the file cache. The
 * files take turns (one round loads each once), so a burst of load on the machine falls on all of them
 * rather than on whichever was being measured then.
 */
export async function coldLoads(
  files: ReadonlyMap<string, string>,
  env: Record<string, string>,
  { runs, nodeFlags }: { runs: number; nodeFlags: string[] },
): Promise<Map<string, ColdLoad>> {
  const times = new Map<string, { ms: number; cpuMs: number }[]>([...files.keys()].map((name) => [name, []]));
  for (let round = 0; round <= runs; round++) {
    for (const [name, file] of files) {
      const time = await loadOnce(file, env, nodeFlags);
      if (round > 0) times.get(name)?.push(time);
    }
  }
  const summary = (t: { ms: number; cpuMs: number }[]): ColdLoad => {
    const ms = t.map((x) => x.ms);
    const cpuMs = t.map((x) => x.cpuMs);
    return {
      medianMs: median(ms),
      minMs: Math.min(...ms),
      maxMs: Math.max(...ms),
      medianCpuMs: median(cpuMs),
    };
  };
  return new Map([...times].map(([name, t]) => [name, summary(t)]));
}
