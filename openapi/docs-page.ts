// The API reference page: Swagger UI (swagger-ui-dist, prebuilt static files from the npm registry)
// rendering the OpenAPI document. The local gateway serves it at /docs; the build writes the same
// files to dist/docs/ for publishing. Nothing is loaded from a CDN, and the page has no inline script,
// so it works offline and under a strict Content-Security-Policy.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The files of swagger-ui-dist the page uses, with their media types. */
export const SWAGGER_UI_FILES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

export const INIT_SCRIPT = 'init.js';

const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

export const readSwaggerUiFile = (name: string): Buffer => readFileSync(join(swaggerUiDir, name));

export interface DocsPageOptions {
  /** Where the page finds the document, e.g. `/openapi.json`. */
  specUrl: string;
  /** Where the page finds its scripts and styles (ends with `/`), e.g. `/docs/`. */
  assetBase: string;
}

export function docsPageHtml({ assetBase }: DocsPageOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Payments gateway API reference</title>
  <link rel="stylesheet" href="${assetBase}swagger-ui.css">
  <link rel="icon" type="image/png" href="${assetBase}favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${assetBase}swagger-ui-bundle.js"></script>
  <script src="${assetBase}${INIT_SCRIPT}"></script>
</body>
</html>
`;
}

/** Starts Swagger UI. validatorUrl null: Swagger UI would otherwise send the document to its online validator. */
export function docsInitScript({ specUrl }: DocsPageOptions): string {
  return `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(specUrl)},
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  deepLinking: true,
  validatorUrl: null,
  docExpansion: 'list',
  defaultModelsExpandDepth: 1,
});
`;
}
