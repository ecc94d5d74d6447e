// Secrets kept at rest (ledger seeds, webhook signing secrets) are sealed with AES-256-GCM under the
// key-encryption key in Secrets Manager. The additional authenticated data names what the secret
// belongs to (an account's public key, a webhook registration's id), so a sealed value copied onto
// another record does not open. No SDK here: a function that only seals carries none.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readSecretJson } from './aws/secrets.ts';
import { config } from './config.ts';

/** A sealed secret; all members base64. `v` names the scheme (1: AES-256-GCM, AAD = its owner's name). */
export interface SealedSecret {
  v: 1;
  iv: string;
  tag: string;
  ct: string;
}

/** A secret that cannot be sealed or opened: missing or wrong key material, or not sealed for this owner. */
export class CustodyError extends Error {
  override name = 'CustodyError';
}

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Seals `secret` for `owner` under `kek` (pure). */
export function sealBytes(kek: Buffer, owner: string, secret: Uint8Array): SealedSecret {
  if (kek.length !== KEY_BYTES) throw new CustodyError('The key-encryption key must be 32 bytes');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', kek, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(owner, 'utf8'));
  const ct = Buffer.concat([cipher.update(secret), cipher.final()]);
  return {
    v: 1,
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    ct: ct.toString('base64'),
  };
}

/** Opens what was sealed for `owner`; throws CustodyError otherwise. The caller wipes the result. */
export function openBytes(kek: Buffer, owner: string, sealed: SealedSecret): Buffer {
  const fail = () => new CustodyError(`The sealed secret of ${owner} cannot be opened`);
  if (kek.length !== KEY_BYTES || sealed?.v !== 1) throw fail();
  const iv = Buffer.from(sealed.iv ?? '', 'base64');
  const tag = Buffer.from(sealed.tag ?? '', 'base64');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw fail();
  try {
    const decipher = createDecipheriv('aes-256-gcm', kek, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(owner, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(sealed.ct ?? '', 'base64')), decipher.final()]);
  } catch {
    throw fail();
  }
}

/** The key-encryption key, from the Parameters cache of lib/aws/secrets.ts (a failed read is not kept). */
export async function keyEncryptionKey(): Promise<Buffer> {
  const { KEK_SECRET_ID } = config();
  if (!KEK_SECRET_ID) throw new CustodyError('KEK_SECRET_ID is not configured: secrets cannot be sealed');
  const secret = (await readSecretJson(KEK_SECRET_ID)) as { key?: unknown } | null;
  const key = typeof secret?.key === 'string' ? Buffer.from(secret.key, 'base64') : Buffer.alloc(0);
  if (key.length !== KEY_BYTES)
    throw new CustodyError('The key-encryption key secret must hold {key} of 32 bytes');
  return key;
}
