// Secrets kept at rest (ledger seeds, webhook signing secrets) are sealed with AES-256-GCM under a
// key-encryption key (KEK) read from Secrets Manager: one KEK secret per environment, so what is sealed
// for sandbox never shares a key with production. A KEK secret is a ring of 32-byte keys, each with a
// key id (`kid`), and names the current one: a seal uses the current key and records its kid, an open
// uses the key the sealed value names, so the KEK rotates (lib/keys/rotation.ts adds a key) without
// re-sealing anything. A value sealed before kids existed names none and opens with the ring's first key.
// The additional authenticated data names what the secret belongs to (an account's public key, a
// webhook registration's id), so a sealed value copied onto another record does not open. No SDK here:
// a function that only seals carries none.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readSecretJson } from './aws/secrets.ts';
import { config } from './config.ts';
import type { Environment } from './tenant.ts';

/**
 * A sealed secret; iv, tag and ct base64. `v` names the scheme (1: AES-256-GCM, AAD = its owner's
 * name); `kid` the KEK key it was sealed with (absent on values sealed before key ids: the first key).
 */
export interface SealedSecret {
  v: 1;
  kid?: string;
  iv: string;
  tag: string;
  ct: string;
}

/** A secret that cannot be sealed or opened: missing or wrong key material, or not sealed for this owner. */
export class CustodyError extends Error {
  override name = 'CustodyError';
}

export const KEK_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** One key of a KEK ring. */
export interface KekKey {
  kid: string;
  key: Buffer;
}

/** A KEK secret read and checked: the key that seals, and every key that opens. */
export interface KekRing {
  current: KekKey;
  /** The ring's first key: the one values sealed without a kid were sealed with. */
  first: KekKey;
  byKid: ReadonlyMap<string, KekKey>;
}

/** The JSON a KEK secret holds (what lib/keys/rotation.ts writes). */
export interface KekSecret {
  current: string;
  keys: { kid: string; key: string; createdAt?: string }[];
}

/** The kid a bare key (a one-key ring, or the legacy `{key}` secret) is known by. */
export const FIRST_KID = 'k1';

/** A ring of one key: what tests and the bench seal with, and what a legacy `{key}` secret reads as. */
export function singleKeyRing(key: Buffer, kid = FIRST_KID): KekRing {
  if (key.length !== KEK_BYTES) throw new CustodyError(`The key-encryption key must be ${KEK_BYTES} bytes`);
  const only = { kid, key };
  return { current: only, first: only, byKid: new Map([[kid, only]]) };
}

/**
 * Reads a KEK secret's value: `{current, keys: [{kid, key}]}` (keys base64, 32 bytes each), or the
 * legacy `{key}`. Anything else, an empty ring included (a secret nothing has rotated yet), is refused
 * with what to do, never half-used.
 */
export function parseKekRing(value: unknown, label = 'The key-encryption key'): KekRing {
  const refuse = (why: string) =>
    new CustodyError(
      `${label} ${why}: nothing can be sealed or opened until its rotation writes a key ` +
        '(npm run admin -- keys rotate --secret kek --environment <environment> [--stage <stage>]).',
    );
  const decode = (text: unknown, kid: string) => {
    const key = typeof text === 'string' ? Buffer.from(text, 'base64') : Buffer.alloc(0);
    if (key.length !== KEK_BYTES || key.toString('base64') !== text)
      throw refuse(`key ${kid} is not ${KEK_BYTES} bytes of base64`);
    return { kid, key };
  };
  if (typeof value !== 'object' || value === null) throw refuse('is not a JSON object');
  const secret = value as Partial<KekSecret> & { key?: unknown };
  if (secret.keys === undefined && secret.key !== undefined)
    return singleKeyRing(decode(secret.key, FIRST_KID).key);
  if (!Array.isArray(secret.keys) || secret.keys.length === 0) throw refuse('holds no key yet');
  const keys = secret.keys.map((entry) => {
    if (typeof entry?.kid !== 'string' || !/^[\w.-]{1,64}$/.test(entry.kid))
      throw refuse('has a key without a valid kid');
    return decode(entry.key, entry.kid);
  });
  const byKid = new Map(keys.map((key) => [key.kid, key]));
  if (byKid.size !== keys.length) throw refuse('has two keys with one kid');
  const current = typeof secret.current === 'string' ? byKid.get(secret.current) : undefined;
  if (!current) throw refuse('names no current key it holds');
  return { current, first: keys[0] as KekKey, byKid };
}

const ringOf = (kek: Buffer | KekRing): KekRing => (Buffer.isBuffer(kek) ? singleKeyRing(kek) : kek);

/** Seals `secret` for `owner` under the ring's current key (pure). */
export function sealBytes(kek: Buffer | KekRing, owner: string, secret: Uint8Array): SealedSecret {
  const { kid, key } = ringOf(kek).current;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(owner, 'utf8'));
  const ct = Buffer.concat([cipher.update(secret), cipher.final()]);
  return {
    v: 1,
    kid,
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    ct: ct.toString('base64'),
  };
}

/** Thrown when the sealed value names a kid the ring read does not hold (it may be newer than the read). */
export class UnknownKidError extends CustodyError {
  override name = 'UnknownKidError';
}

/** Opens what was sealed for `owner`; throws CustodyError otherwise. The caller wipes the result. */
export function openBytes(kek: Buffer | KekRing, owner: string, sealed: SealedSecret): Buffer {
  const fail = () => new CustodyError(`The sealed secret of ${owner} cannot be opened`);
  if (sealed?.v !== 1) throw fail();
  const ring = ringOf(kek);
  const used = sealed.kid === undefined ? ring.first : ring.byKid.get(sealed.kid);
  if (!used)
    throw new UnknownKidError(`The sealed secret of ${owner} names key ${sealed.kid}, which the KEK lacks`);
  const iv = Buffer.from(sealed.iv ?? '', 'base64');
  const tag = Buffer.from(sealed.tag ?? '', 'base64');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw fail();
  try {
    const decipher = createDecipheriv('aes-256-gcm', used.key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(owner, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(sealed.ct ?? '', 'base64')), decipher.final()]);
  } catch {
    throw fail();
  }
}

/** The secret id of an environment's KEK (KEK_SECRET_ID_SANDBOX / _PRODUCTION). */
function kekSecretId(environment: Environment): string {
  const id =
    environment === 'production' ? config().KEK_SECRET_ID_PRODUCTION : config().KEK_SECRET_ID_SANDBOX;
  if (!id)
    throw new CustodyError(
      `KEK_SECRET_ID_${environment.toUpperCase()} is not configured: ${environment} secrets cannot be sealed`,
    );
  return id;
}

/**
 * The environment's KEK ring, from the Parameters cache of lib/aws/secrets.ts (a failed read is not
 * kept). `forceFetch` reads it afresh: for a sealed value whose kid is newer than the cached ring.
 */
export async function keyEncryptionKey(
  environment: Environment,
  options: { forceFetch?: boolean } = {},
): Promise<KekRing> {
  const secret = await readSecretJson(kekSecretId(environment), options);
  return parseKekRing(secret, `The ${environment} key-encryption key`);
}

/** Seals for `owner` under the environment's current KEK key. */
export async function seal(
  environment: Environment,
  owner: string,
  secret: Uint8Array,
): Promise<SealedSecret> {
  return sealBytes(await keyEncryptionKey(environment), owner, secret);
}

/**
 * Opens with the environment's KEK. A kid the cached ring lacks was added by a rotation another
 * instance has already read: the ring is read again, once, before giving up. Only values this service
 * sealed come here (from its own table), so the extra read cannot be provoked from outside.
 */
export async function open(environment: Environment, owner: string, sealed: SealedSecret): Promise<Buffer> {
  try {
    return openBytes(await keyEncryptionKey(environment), owner, sealed);
  } catch (error) {
    if (!(error instanceof UnknownKidError)) throw error;
    return openBytes(await keyEncryptionKey(environment, { forceFetch: true }), owner, sealed);
  }
}
