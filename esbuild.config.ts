// Bundles every function under functions/ into its own minified, tree-shaken ESM bundle:
// dist/functions/<kind>/<name>/index.mjs (+ .map). Run directly to build and print sizes.
import { mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build, type Plugin } from 'esbuild';
import { buildPortal } from './portal/build.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
export const functionsDir = join(root, 'functions');
export const distDir = join(root, 'dist', 'functions');
/**
 * esbuild's account of the last build (what each bundle is made of), beside the bundles rather than among
 * them (CDK stages each function's folder): the tests read it instead of bundling everything again.
 */
export const metafilePath = join(root, 'dist', 'functions.meta.json');

export interface BundleEntry {
  /** `api/assets`, `workers/ledger-submitter` */
  name: string;
  source: string;
  outDir: string;
  outFile: string;
}

export function bundleEntries(): BundleEntry[] {
  return readdirSync(functionsDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => {
      const name = file.replace(/\.ts$/, '');
      const outDir = join(distDir, name);
      return { name, source: join(functionsDir, file), outDir, outFile: join(outDir, 'index.mjs') };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * `node:http` and `node:https` reach the bundle through `require`, never `import`. An ES import of a
 * builtin reads every one of its exports, and `http.WebSocket` is a lazy getter that loads undici: 30-45 ms
 * of every cold start. `require` hands back the same object without reading it. The AWS SDK's ES build
 * (see mainFields) imports both for its HTTP handler.
 */
const httpThroughRequire: Plugin = {
  name: 'http-through-require',
  setup(build) {
    // Only imports from files: the require below resolves as usual (an external builtin).
    build.onResolve({ filter: /^(node:)?https?$/, namespace: 'file' }, ({ path }) => ({
      path: path.replace(/^node:/, ''),
      namespace: 'http-through-require',
    }));
    build.onLoad({ filter: /.*/, namespace: 'http-through-require' }, ({ path }) => ({
      contents: `module.exports = require('node:${path}');`,
      loader: 'js',
    }));
  },
};

/** The options every function bundle is built with (the bench builds its baselines with them too). */
export const bundleOptions = {
  bundle: true,
  minify: true,
  treeShaking: true,
  sourcemap: true,
  // Mappings only: stack traces need no original text, and Node reads and parses the whole map when a
  // bundle loads under --enable-source-maps (as Lambda runs it): two thirds of the map's bytes.
  sourcesContent: false,
  format: 'esm',
  platform: 'node',
  target: 'node24',
  // ES builds first: the AWS SDK's CommonJS build (its `main`) cannot be tree-shaken (~217 KiB a bundle).
  mainFields: ['module', 'main'],
  plugins: [httpThroughRequire],
  // Some dependencies are CommonJS and call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  logLevel: 'warning',
} satisfies BuildOptions;

/**
 * Every function in one esbuild build: a module they share (the AWS SDK, lib/) is parsed once for all
 * of them, not once per function, and with no code splitting each entry point is still bundled by itself
 * into its own file. The same bytes as a build per function (dist/functions compared file by file when
 * this changed), in a third of the time: every `cdk synth` bundles them all first (infra/app.ts).
 */
export async function buildAll(): Promise<BundleEntry[]> {
  const entries = bundleEntries();
  const result = await build({
    ...bundleOptions,
    // Output names relative to distDir, without the extension: `api/auth/index` → dist/functions/api/auth/index.mjs.
    entryPoints: Object.fromEntries(
      entries.map((entry) => [relative(distDir, entry.outFile).replace(/\.mjs$/, ''), entry.source]),
    ),
    outdir: distDir,
    outExtension: { '.js': '.mjs' },
    write: false,
    metafile: true,
    absWorkingDir: root, // the metafile's paths are repository-relative, wherever the build runs from
  });
  for (const file of result.outputFiles) writeWhole(file.path, file.contents);
  writeWhole(metafilePath, JSON.stringify(result.metafile));
  // The business portal too: cdk synth stages dist/portal as the portal bucket's content.
  await buildPortal(join(dirname(distDir), 'portal'));
  return entries;
}

/**
 * Writes an output file to a scratch name and renames it into place: a `cdk synth` and the infra tests
 * may build while another process stages the same bundles, and a reader must never see a half-written
 * file. The scratch files sit in dist/, outside the folders CDK stages as assets.
 */
function writeWhole(path: string, contents: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const scratch = join(
    dirname(distDir),
    `.${process.pid}.${relative(distDir, path).replaceAll('/', '.')}.tmp`,
  );
  writeFileSync(scratch, contents);
  renameSync(scratch, path);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const entries = await buildAll();
  for (const entry of entries) {
    const kib = (statSync(entry.outFile).size / 1024).toFixed(1);
    console.log(`${entry.name.padEnd(32)} ${kib.padStart(8)} KiB  ${relative(root, entry.outFile)}`);
  }
}
