// Key custody: ledger secret keys are kept only sealed (AES-256-GCM) under a key-encryption key that
// lives in Secrets Manager. The account's public key is the additional authenticated data, so a sealed
// secret copied onto another account's record does not open. Secrets are never logged or returned.
// New keys come from node:crypto and only opening a secret makes an SDK Keypair, so the wallets function
// (which creates keys but builds no transactions) carries the SDK's StrKey, not its XDR.
import { createCipheriv, createDecipheriv, generateKeyPairSync, randomBytes } from 'node:crypto';
import { Keypair, StrKey } from '@stellar/stellar-sdk';
import { readSecretJson } from '../aws/secrets.ts';
import { config } from '../config.ts';
import { CustodyError } from './errors.ts';

/** A sealed ed25519 seed; all members base64. `v` names the scheme (1: AES-256-GCM, AAD = public key). */
export interface SealedSecret {
  v: 1;
  iv: string;
  tag: string;
  ct: string;
}

export interface AccountKeys {
  publicKey: string;
  sealedSecret: SealedSecret;
}

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What sealing needs of a keypair: an SDK Keypair is one. */
export interface SeededKeys {
  publicKey(): string;
  /** The 32-byte ed25519 seed. */
  rawSecretKey(): Uint8Array;
}

/** Seals a keypair's seed under `kek` (pure: the unit tests and sealSecret use it). */
export function sealWithKey(kek: Buffer, keypair: SeededKeys): SealedSecret {
  if (kek.length !== KEY_BYTES) throw new CustodyError('The key-encryption key must be 32 bytes');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', kek, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(keypair.publicKey(), 'utf8'));
  const seed = Buffer.from(keypair.rawSecretKey()); // a copy: the keypair holds its seed by reference
  try {
    const ct = Buffer.concat([cipher.update(seed), cipher.final()]);
    return {
      v: 1,
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      ct: ct.toString('base64'),
    };
  } finally {
    seed.fill(0);
  }
}

/** Opens a sealed secret for `publicKey`; throws CustodyError if it was not sealed for that account. */
export function openWithKey(kek: Buffer, publicKey: string, sealed: SealedSecret): Keypair {
  const fail = () => new CustodyError(`The sealed secret of ${publicKey} cannot be opened`);
  if (kek.length !== KEY_BYTES || sealed?.v !== 1) throw fail();
  const iv = Buffer.from(sealed.iv ?? '', 'base64');
  const tag = Buffer.from(sealed.tag ?? '', 'base64');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw fail();
  let seed: Buffer | undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', kek, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(publicKey, 'utf8'));
    decipher.setAuthTag(tag);
    seed = Buffer.concat([decipher.update(Buffer.from(sealed.ct ?? '', 'base64')), decipher.final()]);
    const keypair = Keypair.fromRawEd25519Seed(Buffer.from(seed)); // a copy: `seed` is wiped below
    if (keypair.publicKey() !== publicKey) throw fail();
    return keypair;
  } catch {
    throw fail();
  } finally {
    seed?.fill(0);
  }
}

/** The key-encryption key, from the Parameters cache of lib/aws/secrets.ts (a failed read is not kept). */
async function keyEncryptionKey(): Promise<Buffer> {
  const { KEK_SECRET_ID } = config();
  if (!KEK_SECRET_ID)
    throw new CustodyError('KEK_SECRET_ID is not configured: ledger secrets cannot be sealed');
  const secret = (await readSecretJson(KEK_SECRET_ID)) as { key?: unknown } | null;
  const key = typeof secret?.key === 'string' ? Buffer.from(secret.key, 'base64') : Buffer.alloc(0);
  if (key.length !== KEY_BYTES)
    throw new CustodyError('The key-encryption key secret must hold {key} of 32 bytes');
  return key;
}

export async function sealSecret(keypair: SeededKeys): Promise<SealedSecret> {
  return sealWithKey(await keyEncryptionKey(), keypair);
}

export async function openSecret(publicKey: string, sealed: SealedSecret): Promise<Keypair> {
  return openWithKey(await keyEncryptionKey(), publicKey, sealed);
}

/** A random ed25519 keypair, as Keypair.random() makes one: a random seed and its public key. */
function randomKeys(): SeededKeys {
  const { d, x } = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  const seed = Buffer.from(d ?? '', 'base64url');
  const publicKey = StrKey.encodeEd25519PublicKey(Buffer.from(x ?? '', 'base64url'));
  return { publicKey: () => publicKey, rawSecretKey: () => seed };
}

/** A fresh ledger account: its public key and its sealed secret (the secret itself never leaves here). */
export async function newAccountKeys(): Promise<AccountKeys> {
  const keys = randomKeys();
  try {
    return { publicKey: keys.publicKey(), sealedSecret: await sealSecret(keys) };
  } finally {
    keys.rawSecretKey().fill(0);
  }
}
