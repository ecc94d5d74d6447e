// Bundle sizes, and the baselines for cold loads bundled the same way: the floor (a Middy handler with
// the Logger and a DynamoDB document client) and a bare Middy handler.
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type BundleEntry, buildAll, bundleOptions } from '../esbuild.config.ts';

export interface BundleSize {
  name: string;
  outFile: string;
  kib: number;
  mapKib: number;
}

const sizeOf = (name: string, outFile: string): BundleSize => ({
  name,
  outFile,
  kib: statSync(outFile).size / 1024,
  mapKib: statSync(`${outFile}.map`).size / 1024,
});

/** Builds every function (dist/functions/…) and returns the bundle sizes. */
export async function buildFunctions(): Promise<{ entries: BundleEntry[]; sizes: BundleSize[] }> {
  const entries = await buildAll();
  return { entries, sizes: entries.map((e) => sizeOf(e.name, e.outFile)) };
}

/**
 * `middy().handler(async () => ({ statusCode: 200 }))` bundled into `dir`. The entry sits under the repo,
 * so esbuild resolves @middy/core from the repo's node_modules.
 */
export async function buildBareMiddy(dir: string): Promise<BundleSize> {
  const entry = join(dir, 'bare-middy.mjs');
  writeFileSync(
    entry,
    "import middy from '@middy/core';\nexport const handler = middy().handler(async () => ({ statusCode: 200 }));\n",
  );
  const outFile = join(dir, 'bare-middy', 'index.mjs');
  await build({ ...bundleOptions, entryPoints: [entry], outfile: outFile });
  return sizeOf('bare middy', outFile);
}

/** bench/cold-floor-handler.ts bundled into `dir` with the functions' options: what every function is held to. */
export async function buildColdFloor(dir: string): Promise<BundleSize> {
  const outFile = join(dir, 'cold-floor', 'index.mjs');
  await build({
    ...bundleOptions,
    entryPoints: [fileURLToPath(new URL('cold-floor-handler.ts', import.meta.url))],
    outfile: outFile,
  });
  return sizeOf('floor', outFile);
}
