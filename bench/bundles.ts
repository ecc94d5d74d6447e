// Bundle sizes, and a bare Middy handler bundled the same way as a baseline for cold loads.
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
