// Key custody: ledger secret keys are kept only sealed (AES-256-GCM, lib/secret-box.ts) under a key-encryption key that
// lives in Secrets Manager. The account's public key is the additional authenticated data, so a sealed
// secret copied onto another account's record does not open. Secrets are never logged or returned.
// New keys come from node:crypto and only opening a secret makes an SDK Keypair, so the wallets function
// (which creates keys but builds no transactions) carries the SDK's StrKey, not its XDR.
import { generateKeyPairSync } from 'node:crypto';
import { Keypair, StrKey } from '@stellar/stellar-sdk';
import { CustodyError, keyEncryptionKey, openBytes, type SealedSecret, sealBytes } from '../secret-box.ts';

export type { SealedSecret };

export interface AccountKeys {
  publicKey: string;
  sealedSecret: SealedSecret;
}

/** What sealing needs of a keypair: an SDK Keypair is one. */
export interface SeededKeys {
  publicKey(): string;
  /** The 32-byte ed25519 seed. */
  rawSecretKey(): Uint8Array;
}

/** Seals a keypair's seed under `kek`, for its public key (pure: the unit tests and sealSecret use it). */
export function sealWithKey(kek: Buffer, keypair: SeededKeys): SealedSecret {
  const seed = Buffer.from(keypair.rawSecretKey()); // a copy: the keypair holds its seed by reference
  try {
    return sealBytes(kek, keypair.publicKey(), seed);
  } finally {
    seed.fill(0);
  }
}

/** Opens a sealed secret for `publicKey`; throws CustodyError if it was not sealed for that account. */
export function openWithKey(kek: Buffer, publicKey: string, sealed: SealedSecret): Keypair {
  const seed = openBytes(kek, publicKey, sealed);
  try {
    const keypair = Keypair.fromRawEd25519Seed(Buffer.from(seed)); // a copy: `seed` is wiped below
    if (keypair.publicKey() !== publicKey)
      throw new CustodyError(`The sealed secret of ${publicKey} cannot be opened`);
    return keypair;
  } finally {
    seed.fill(0);
  }
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
