// The business portal on the local stack, on the API's own origin as CloudFront serves it (no CORS):
// GET /portal/ and its two files, built at start (portal/build.ts), with the headers the distribution's
// response headers policy sets (infra/constructs/portal.ts). GET / leads to it.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { buildPortal, PORTAL_FILES } from '../portal/build.ts';
import { PORTAL_SECURITY_HEADERS } from '../portal/headers.ts';

export interface LocalPortal {
  dir: string;
  sizes: Awaited<ReturnType<typeof buildPortal>>;
}

export async function prepareLocalPortal(dataDir: string): Promise<LocalPortal> {
  const dir = join(dataDir, 'portal');
  return { dir, sizes: await buildPortal(dir) };
}

/** Answers the request when it is for the portal; false when it is not. */
export function servePortal(
  req: IncomingMessage,
  res: ServerResponse,
  portal: LocalPortal | undefined,
): boolean {
  if (!portal || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (path === '/') {
    res.writeHead(302, { Location: '/portal/' }).end();
    return true;
  }
  const file =
    path === '/portal' || path === '/portal/'
      ? 'index.html'
      : path.startsWith('/portal/')
        ? path.slice(8)
        : '';
  // Only the listed files: a name is looked up, never joined into a path as given.
  if (!Object.hasOwn(PORTAL_FILES, file)) return false;
  const type = PORTAL_FILES[file as keyof typeof PORTAL_FILES];
  res
    .writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-cache', ...PORTAL_SECURITY_HEADERS })
    .end(req.method === 'HEAD' ? undefined : readFileSync(join(portal.dir, file)));
  return true;
}
