// The local gateway's API reference, outside /v1 like /healthz: GET /openapi.json (the generated
// document) and GET /docs (Swagger UI, its files served from node_modules): the files the build writes
// (openapi/write.ts), served from memory. Not part of the API, so no authentication and no problem
// bodies: anything else falls through to the gateway's routing.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DocsPageOptions } from '../openapi/docs-page.ts';

const page: DocsPageOptions = { specUrl: '/openapi.json', assetBase: '/docs/' };

let documentJson: Promise<string> | undefined;

/** Loaded on the first request for it: the generator loads every operation, which the gateway otherwise loads lazily. */
const writer = () => import('../openapi/write.ts');

/** Answers the request when it is for the API reference; false when it is not. */
export async function serveApiReference(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (req.method !== 'GET') return false;
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (path !== '/openapi.json' && path !== '/docs' && !path.startsWith('/docs/')) return false;
  const send = (type: string, body: string | Buffer) => {
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-cache' }).end(body);
    return true;
  };
  if (path === '/openapi.json') {
    documentJson ??= writer().then((write) => write.documentJson());
    return send('application/json', await documentJson);
  }
  const files = (await writer()).siteFiles(page);
  // Only the site's files: a name is looked up, never joined into a path as given.
  const name = path === '/docs' || path === '/docs/' ? 'index.html' : path.slice('/docs/'.length);
  const file = Object.hasOwn(files, name) ? files[name] : undefined;
  return file ? send(file.type, file.content()) : false;
}
