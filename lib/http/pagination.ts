// Cursor pagination: `limit` 1..100 (default 20, above 100 means 100) and an opaque `cursor` that is
// sealed (AES-GCM) and bound to the tenant and the query it was issued for, so a forged or transplanted
// cursor is a 400, never a way into other data.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import * as z from 'zod';
import { readSecretJson } from '../aws/secrets.ts';
import { config } from '../config.ts';
import { badRequest } from './problem.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export const limitParam = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined) return DEFAULT_LIMIT;
    if (!/^\d{1,9}$/.test(value) || Number(value) < 1) {
      ctx.addIssue({ code: 'custom', message: 'must be an integer from 1 to 100' });
      return z.NEVER;
    }
    return Math.min(Number(value), MAX_LIMIT);
  });

export const cursorParam = z.string().min(1).max(2048).optional();

/** The query members every paginated collection takes. */
export const pageQueryShape = { limit: limitParam, cursor: cursorParam };

export interface Page<T> {
  data: T[];
  pagination: { nextCursor: string | null; hasMore: boolean };
}

/** What a cursor is bound to: the tenant scope and a fingerprint of the query's filters. */
export interface CursorBinding {
  scope: string;
  query: string;
}

let cursorKey: Buffer | undefined;

/** A 256-bit AES key derived from the cursor secret. */
async function key(): Promise<Buffer> {
  if (!cursorKey) {
    const { CURSOR_KEY_SECRET_ID, KEY_FETCH_TIMEOUT_MS } = config();
    if (!CURSOR_KEY_SECRET_ID) throw new Error('CURSOR_KEY_SECRET_ID is not configured');
    const secret = (await readSecretJson(CURSOR_KEY_SECRET_ID, KEY_FETCH_TIMEOUT_MS)) as { key?: string };
    if (!secret?.key) throw new Error('The cursor key secret has no key');
    cursorKey = createHash('sha256').update(`cursor:${secret.key}`).digest();
  }
  return cursorKey;
}

/** Cursors are sealed with AES-256-GCM: opaque to the caller (no keys or tenant ids to read) and tamper-evident. */
export async function encodeCursor(
  binding: CursorBinding,
  position: Record<string, unknown>,
): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await key(), iv);
  const sealed = Buffer.concat([
    cipher.update(JSON.stringify({ ...binding, position }), 'utf8'),
    cipher.final(),
  ]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

const invalidCursor = () =>
  badRequest('The cursor is invalid.', [{ field: 'cursor', message: 'is invalid' }]);

/** The position a cursor points at, or a 400 when it was not issued by us for this tenant and query. */
export async function decodeCursor(cursor: string, binding: CursorBinding): Promise<Record<string, unknown>> {
  const raw = Buffer.from(cursor, 'base64url');
  if (raw.length < 29 || raw.toString('base64url') !== cursor) throw invalidCursor();
  let decoded: CursorBinding & { position: Record<string, unknown> };
  try {
    const decipher = createDecipheriv('aes-256-gcm', await key(), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
    decoded = JSON.parse(plain.toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (decoded.scope !== binding.scope || decoded.query !== binding.query) throw invalidCursor();
  return decoded.position;
}
