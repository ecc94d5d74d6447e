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

/** Median over `runs` fresh processes, after one discarded run that warms the file cache. */
export async function coldLoad(
  file: string,
  env: Record<string, string>,
  { runs, nodeFlags }: { runs: number; nodeFlags: string[] },
): Promise<ColdLoad> {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(performance.now() - t);`;
  const once = async () => {
    const { stdout } = await run(process.execPath, [...nodeFlags, '--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    return Number(stdout.trim().split('\n').at(-1));
  };
  await once();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await once());
  return { medianMs: median(times), minMs: Math.min(...times), maxMs: Math.max(...times) };
}
