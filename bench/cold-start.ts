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
}

async function loadOnce(file: string, env: Record<string, string>, nodeFlags: string[]): Promise<number> {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(performance.now() - t);`;
  const { stdout } = await run(process.execPath, [...nodeFlags, '--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  return Number(stdout.trim().split('\n').at(-1));
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
  const times = new Map<string, number[]>([...files.keys()].map((name) => [name, []]));
  for (let round = 0; round <= runs; round++) {
    for (const [name, file] of files) {
      const ms = await loadOnce(file, env, nodeFlags);
      if (round > 0) times.get(name)?.push(ms);
    }
  }
  return new Map(
    [...times].map(([name, t]) => [
      name,
      { medianMs: median(t), minMs: Math.min(...t), maxMs: Math.max(...t) },
    ]),
  );
}
