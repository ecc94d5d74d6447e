// Builds the business portal: one minified ES module (Preact, the typed client, the pages) and its
// stylesheet and page, into `outdir`. The local stack builds it as it starts (local/portal.ts);
// `npm run build` into dist/portal, which cdk deploy puts in the portal's bucket (infra/constructs/portal.ts).
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));

/** The files of the app shell, each as served. */
export const PORTAL_FILES = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
} as const;

/** Builds into `outdir`; answers each file's size and its gzip size (what the first load costs). */
export async function buildPortal(outdir: string): Promise<Record<string, { bytes: number; gzip: number }>> {
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: { app: join(here, 'src/main.tsx') },
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir,
    legalComments: 'none',
    logLevel: 'silent',
  });
  copyFileSync(join(here, 'index.html'), join(outdir, 'index.html'));
  copyFileSync(join(here, 'app.css'), join(outdir, 'app.css'));
  const sizes: Record<string, { bytes: number; gzip: number }> = {};
  for (const file of Object.keys(PORTAL_FILES)) {
    const content = readFileSync(join(outdir, file));
    sizes[file] = { bytes: content.length, gzip: gzipSync(content, { level: 9 }).length };
  }
  return sizes;
}

if (import.meta.main) {
  const outdir = process.argv[2] ?? 'dist/portal';
  const sizes = await buildPortal(outdir);
  let total = 0;
  for (const [file, { bytes, gzip }] of Object.entries(sizes)) {
    total += gzip;
    console.log(
      `${`portal/${file}`.padEnd(20)} ${(bytes / 1024).toFixed(1).padStart(7)} KiB  ${(gzip / 1024).toFixed(1).padStart(6)} KiB gzip`,
    );
  }
  console.log(`portal app shell, first load: ${(total / 1024).toFixed(1)} KiB gzip (budget 200 KiB)`);
}
