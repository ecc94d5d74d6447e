// Cursors: AES-256-GCM-sealed positions, bound to the tenant and the query they were issued for, so a
// forged or transplanted cursor is a 400, never a way into other data. The key comes from a secret;
// this sits with the table's pagination (lib/db), not in the HTTP chain, which needs no secret.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { readSecretJson } from '../aws/secrets.ts';
import { config } from '../config.ts';
import { badRequest } from '../http/problem.ts';

/** What a cursor is bound to: the tenant scope and a fingerprint of the query's filters. */
export interface CursorBinding {
  scope: string;
  query: string;
}

/** The cursor key secret: `{key}`, and after a rotation the key it replaced (lib/keys/rotation.ts). */
export interface CursorKeySecret {
  key: string;
  previous?: string;
}

const derived = (key: string) => createHash('sha256').update(`cursor:${key}`).digest();

/**
 * The 256-bit AES keys a cursor key secret gives: the current one (which seals) first, then the one it
 * replaced (which still opens cursors handed out before the rotation). Throws on a secret without a key.
 */
export function cursorKeysOf(secret: unknown): Buffer[] {
  const { key, previous } = (secret ?? {}) as Partial<CursorKeySecret>;
  if (typeof key !== 'string' || key.length < 32) throw new Error('The cursor key secret has no key');
  return typeof previous === 'string' && previous.length >= 32
    ? [derived(key), derived(previous)]
    : [derived(key)];
}

/** The keys, from the Parameters cache of lib/aws/secrets.ts. */
async function keys(options: { forceFetch?: boolean } = {}): Promise<Buffer[]> {
  const { CURSOR_KEY_SECRET_ID } = config();
  if (!CURSOR_KEY_SECRET_ID) throw new Error('CURSOR_KEY_SECRET_ID is not configured');
  return cursorKeysOf(await readSecretJson(CURSOR_KEY_SECRET_ID, options));
}

/**
 * After a rotation, an instance that read the new key first may hand out a cursor that one still
 * holding the old secret cannot open: that one reads the secret again, at most this often, so a flood
 * of forged cursors costs at most one read per instance per interval.
 */
const REFRESH_INTERVAL_MS = 30_000;
let lastRefresh = 0;

/**
 * The binding is authenticated, not carried: it is the cipher's additional data, so a cursor opens only
 * for the tenant and query it was issued for. The position is carried compactly: the tenant scope its
 * keys repeat is written once as U+0001 (which JSON never leaves raw in its output), then deflated.
 */
const bindingData = (binding: CursorBinding) =>
  createHash('sha256').update(`${binding.scope}\u0000${binding.query}`).digest();
const SCOPE_MARK = '\u0001';

/** Cursors are sealed with AES-256-GCM: opaque to the caller (no keys or tenant ids to read) and tamper-evident. */
export async function encodeCursor(
  binding: CursorBinding,
  position: Record<string, unknown>,
): Promise<string> {
  const iv = randomBytes(12);
  const [current] = await keys();
  const cipher = createCipheriv('aes-256-gcm', current as Buffer, iv);
  cipher.setAAD(bindingData(binding));
  const plain = deflateRawSync(JSON.stringify(position).replaceAll(binding.scope, SCOPE_MARK));
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

const invalidCursor = () =>
  badRequest('The cursor is invalid.', [{ field: 'cursor', message: 'is invalid' }]);

/** The position a cursor points at, or a 400 when it was not issued by us for this tenant and query. */
export async function decodeCursor(cursor: string, binding: CursorBinding): Promise<Record<string, unknown>> {
  const raw = Buffer.from(cursor, 'base64url');
  if (raw.length < 29 || raw.toString('base64url') !== cursor) throw invalidCursor();
  const open = (key: Buffer) => {
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      decipher.setAAD(bindingData(binding));
      const plain = inflateRawSync(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]));
      return JSON.parse(plain.toString('utf8').replaceAll(SCOPE_MARK, binding.scope)) as Record<
        string,
        unknown
      >;
    } catch {
      return undefined;
    }
  };
  let decoded = (await keys()).map(open).find(Boolean);
  if (!decoded && Date.now() - lastRefresh >= REFRESH_INTERVAL_MS) {
    lastRefresh = Date.now();
    decoded = (await keys({ forceFetch: true })).map(open).find(Boolean);
  }
  // A cursor of another tenant or query fails authentication like a forged one.
  if (!decoded) throw invalidCursor();
  return decoded;
}
