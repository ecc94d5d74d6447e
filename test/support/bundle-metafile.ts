// What a function bundle is made of, in esbuild's own words: its metafile, built in memory with the
// options every function is built with (esbuild.config.ts).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { bundleOptions } from '../../esbuild.config.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outfile = join(root, 'dist', 'unused.mjs');

/** `inputs`: every file esbuild read (repository-relative); `output`: those the bundle keeps code of. */
export async function bundleMetafile(source: string): Promise<{ inputs: string[]; output: string[] }> {
  const { metafile }: { metafile: Metafile } = await build({
    ...bundleOptions,
    entryPoints: [source],
    write: false,
    metafile: true,
    sourcemap: false,
    minify: false,
    outfile,
  });
  const bundle = Object.values(metafile.outputs)[0];
  return {
    inputs: Object.keys(metafile.inputs),
    output: Object.entries(bundle?.inputs ?? {})
      .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
      .map(([file]) => file),
  };
}
