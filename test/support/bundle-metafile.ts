// What a function bundle is made of, in esbuild's own words. The bundles' metafile is the one the build
// step wrote (`npm test` builds before it tests: esbuild.config.ts's buildAll), read rather than made again,
// so no test rebuilds 26 bundles under a wall clock that a busy machine breaks. A module that is not a
// function's entry point is bundled in memory with the same options.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { type BundleEntry, bundleOptions, metafilePath } from '../../esbuild.config.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outfile = join(root, 'dist', 'unused.mjs');

/** `inputs`: every file esbuild read (repository-relative); `output`: those the bundle keeps code of. */
export interface BundleMakeup {
  inputs: string[];
  output: string[];
}

let built: Metafile | undefined;

/** The metafile of the last build (3 MB of JSON: read once). */
function lastBuild(): Metafile {
  if (!existsSync(metafilePath))
    throw new Error(
      `${relative(root, metafilePath)} is missing: npm test (or npm run build) builds it first`,
    );
  built ??= JSON.parse(readFileSync(metafilePath, 'utf8')) as Metafile;
  return built;
}

/** The built bundle of a function (bundleEntries()), from the metafile the build step wrote. */
export function builtBundle(entry: Pick<BundleEntry, 'source' | 'outFile'>): BundleMakeup {
  const metafile = lastBuild();
  const bundle = metafile.outputs[relative(root, entry.outFile)];
  if (!bundle) throw new Error(`the last build has no ${relative(root, entry.outFile)}: build again`);
  // Every file read from the entry point on, as a build of this entry alone reads them (the build's
  // `inputs` are all entries' together).
  const inputs = new Set<string>();
  const pending = [relative(root, entry.source)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    const read = metafile.inputs[file];
    if (inputs.has(file) || !read) continue;
    inputs.add(file);
    pending.push(...read.imports.map((imported) => imported.path));
  }
  return { inputs: [...inputs], output: keptFiles(bundle) };
}

/** A module's bundle, built in memory with the options every function is built with (esbuild.config.ts). */
export async function bundleMetafile(source: string): Promise<BundleMakeup> {
  const { metafile }: { metafile: Metafile } = await build({
    ...bundleOptions,
    entryPoints: [source],
    write: false,
    metafile: true,
    sourcemap: false,
    minify: false,
    outfile,
  });
  return { inputs: Object.keys(metafile.inputs), output: keptFiles(Object.values(metafile.outputs)[0]) };
}

const keptFiles = (bundle: Metafile['outputs'][string] | undefined): string[] =>
  Object.entries(bundle?.inputs ?? {})
    .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
    .map(([file]) => file);
