// Cursors: AES-256-GCM-sealed positions, bound to the tenant and the query they were issued for, so a
// forged or transplanted cursor is a 400, never a way into other data. The key comes from a secret;
// this sits with the table's pagination (lib/db), not in the HTTP chain, which needs no secret.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { readSecretJson } from '../aws/secrets.ts';
import { config } from '../config.ts';
import { badRequest } from '../http/problem.ts';

/** What a cursor is bound to: the tenant scope and a fingerprint of the query's filters. */
export interface CursorBinding {
  scope: string;
  query: string;
}

/** A 256-bit AES key derived from the cursor secret (kept by the Parameters cache of lib/aws/secrets.ts). */
async function key(): Promise<Buffer> {
  const { CURSOR_KEY_SECRET_ID } = config();
  if (!CURSOR_KEY_SECRET_ID) throw new Error('CURSOR_KEY_SECRET_ID is not configured');
  const secret = (await readSecretJson(CURSOR_KEY_SECRET_ID)) as { key?: string } | null;
  if (!secret?.key) throw new Error('The cursor key secret has no key');
  return createHash('sha256').update(`cursor:${secret.key}`).digest();
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
