// `npm run build` step: writes the OpenAPI document to dist/openapi.json and the API reference site to
// dist/docs/ (index.html, the document, Swagger UI's files), ready to upload as static files.
// OPENAPI_SERVER_URL sets the document's server (default `/v1`, relative to where it is served).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type DocsPageOptions,
  docsInitScript,
  docsPageHtml,
  INIT_SCRIPT,
  readSwaggerUiFile,
  SWAGGER_UI_FILES,
} from './docs-page.ts';
import { openApiDocument } from './document.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const distDir = join(root, 'dist');
const docsDir = join(distDir, 'docs');

/** The document as the site serves it. */
export const documentJson = (serverUrl?: string) =>
  `${JSON.stringify(openApiDocument({ serverUrl }), null, 2)}\n`;

/** The site's files by name, each with its type: the page, its script and Swagger UI's files. */
export function siteFiles(
  page: DocsPageOptions,
): Record<string, { type: string; content: () => string | Buffer }> {
  return {
    'index.html': { type: 'text/html; charset=utf-8', content: () => docsPageHtml(page) },
    [INIT_SCRIPT]: { type: 'text/javascript; charset=utf-8', content: () => docsInitScript(page) },
    ...Object.fromEntries(
      Object.entries(SWAGGER_UI_FILES).map(([name, type]) => [
        name,
        { type, content: () => readSwaggerUiFile(name) },
      ]),
    ),
  };
}

export function writeApiReference(serverUrl = process.env.OPENAPI_SERVER_URL || undefined): string[] {
  const json = documentJson(serverUrl);
  // The site is self-contained: the page, its document and its files sit side by side.
  const page: DocsPageOptions = { specUrl: './openapi.json', assetBase: './' };
  rmSync(docsDir, { recursive: true, force: true });
  mkdirSync(docsDir, { recursive: true });
  const files: [string, string | Buffer][] = [
    [join(distDir, 'openapi.json'), json],
    [join(docsDir, 'openapi.json'), json],
    ...Object.entries(siteFiles(page)).map(([name, file]): [string, string | Buffer] => [
      join(docsDir, name),
      file.content(),
    ]),
  ];
  for (const [file, content] of files) writeFileSync(file, content);
  return files.map(([file]) => relative(root, file));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const file of writeApiReference()) console.log(file);
}
