// Writing answers and reading bodies. Every answer carries the headers Horizon sends (Latest-Ledger, and a
// Date on the ledger clock), whatever route or fault produced it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Problem } from './problems.ts';

const MAX_BODY_BYTES = 1024 * 1024;

/** The headers every answer carries, computed when it is sent (a late answer shows the state by then). */
export type CommonHeaders = () => Record<string, string>;

function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: unknown,
  headers: CommonHeaders,
  extra: Record<string, string> = {},
): void {
  // A late answer to a client that has gone (or a ledger that has stopped) has nobody to reach.
  if (res.destroyed || res.writableEnded) return;
  res
    .writeHead(status, { ...headers(), ...extra, 'Content-Type': `${contentType}; charset=utf-8` })
    .end(JSON.stringify(body));
}

/** Horizon's resources are HAL; the admin routes' answers are plain JSON. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: CommonHeaders,
  contentType = 'application/hal+json',
): void {
  send(res, status, contentType, body, headers);
}

export function sendProblem(
  res: ServerResponse,
  problem: Problem,
  headers: CommonHeaders,
  extra: Record<string, string> = {},
): void {
  send(res, problem.status, 'application/problem+json', problem, headers, extra);
}

/** The body as text; null when it is over 1 MiB. */
export function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A form-encoded (what the SDK sends) or JSON body's string member. */
export function formField(req: IncomingMessage, body: string, name: string): string | undefined {
  if ((req.headers['content-type'] ?? '').includes('application/json')) {
    try {
      const parsed = JSON.parse(body) as Record<string, unknown>;
      const value = parsed?.[name];
      return typeof value === 'string' ? value : undefined;
    } catch {
      return undefined;
    }
  }
  return new URLSearchParams(body).get(name) ?? undefined;
}
