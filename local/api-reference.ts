// The local gateway's API reference, outside /v1 like /healthz: GET /openapi.json (the generated
// document) and GET /docs (Swagger UI, its files served from node_modules). Not part of the API, so
// no authentication and no problem bodies: anything else falls through to the gateway's routing.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type DocsPageOptions,
  docsInitScript,
  docsPageHtml,
  INIT_SCRIPT,
  readSwaggerUiFile,
  SWAGGER_UI_FILES,
} from '../lib/openapi/docs-page.ts';

const page: DocsPageOptions = { specUrl: '/openapi.json', assetBase: '/docs/' };

let documentJson: Promise<string> | undefined;

/** Generated on first request: the generator loads every operation, which the gateway otherwise loads lazily. */
function openApiJson(): Promise<string> {
  documentJson ??= import('../lib/openapi/document.ts').then(({ openApiDocument }) =>
    JSON.stringify(openApiDocument()),
  );
  return documentJson;
}

/** Answers the request when it is for the API reference; false when it is not. */
export async function serveApiReference(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (req.method !== 'GET') return false;
  const path = (req.url ?? '/').split('?')[0];
  const send = (type: string, body: string | Buffer) => {
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-cache' }).end(body);
    return true;
  };
  if (path === '/openapi.json') return send('application/json', await openApiJson());
  if (path === '/docs' || path === '/docs/') return send('text/html; charset=utf-8', docsPageHtml(page));
  if (path === `/docs/${INIT_SCRIPT}`) return send('text/javascript; charset=utf-8', docsInitScript(page));
  // Only the listed files: a name is looked up, never joined into a path as given.
  const file = path?.startsWith('/docs/') ? path.slice('/docs/'.length) : '';
  if (!Object.hasOwn(SWAGGER_UI_FILES, file)) return false;
  return send(SWAGGER_UI_FILES[file] ?? 'application/octet-stream', readSwaggerUiFile(file));
}
