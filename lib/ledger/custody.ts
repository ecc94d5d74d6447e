// Key custody: ledger secret keys are kept only sealed (AES-256-GCM, lib/secret-box.ts) under the
// key-encryption key of their environment, which lives in Secrets Manager. The account's public key is the additional authenticated data, so a sealed
// secret copied onto another account's record does not open. Secrets are never logged or returned.
// New keys come from node:crypto and only opening a secret makes an SDK Keypair (one that signs through
// node:crypto, ed25519.ts), so the wallets function (which creates keys but builds no transactions)
// carries the SDK's StrKey, not its XDR.
import { generateKeyPairSync } from 'node:crypto';
import { type Keypair, StrKey } from '@stellar/stellar-sdk';
import {
  CustodyError,
  type KekRing,
  open,
  openBytes,
  type SealedSecret,
  seal,
  sealBytes,
} from '../secret-box.ts';
import type { Environment } from '../tenant.ts';
import { NativeKeypair } from './ed25519.ts';

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

/** Seals a keypair's seed under `kek`, for its public key (pure: the unit tests and the bench use it). */
export function sealWithKey(kek: Buffer | KekRing, keypair: SeededKeys): SealedSecret {
  const seed = Buffer.from(keypair.rawSecretKey()); // a copy: the keypair holds its seed by reference
  try {
    return sealBytes(kek, keypair.publicKey(), seed);
  } finally {
    seed.fill(0);
  }
}

/** Opens a sealed secret for `publicKey`; throws CustodyError if it was not sealed for that account. */
export function openWithKey(kek: Buffer | KekRing, publicKey: string, sealed: SealedSecret): Keypair {
  return keypairOf(openBytes(kek, publicKey, sealed), publicKey);
}

/** The keypair of an opened seed, checked against the account it was sealed for; wipes the seed. */
function keypairOf(seed: Buffer, publicKey: string): Keypair {
  try {
    const keypair = NativeKeypair.fromSeed(seed); // it keeps a copy: `seed` is wiped below
    if (keypair.publicKey() !== publicKey)
      throw new CustodyError(`The sealed secret of ${publicKey} cannot be opened`);
    return keypair;
  } finally {
    seed.fill(0);
  }
}

/** Seals under the KEK of the environment the account lives in. */
export async function sealSecret(environment: Environment, keypair: SeededKeys): Promise<SealedSecret> {
  const seed = Buffer.from(keypair.rawSecretKey());
  try {
    return await seal(environment, keypair.publicKey(), seed);
  } finally {
    seed.fill(0);
  }
}

/** Opens with the KEK of the environment the account lives in (the one it was sealed for). */
export async function openSecret(
  environment: Environment,
  publicKey: string,
  sealed: SealedSecret,
): Promise<Keypair> {
  return keypairOf(await open(environment, publicKey, sealed), publicKey);
}

/** A random ed25519 keypair, as Keypair.random() makes one: a random seed and its public key. */
function randomKeys(): SeededKeys {
  const { d, x } = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  const seed = Buffer.from(d ?? '', 'base64url');
  const publicKey = StrKey.encodeEd25519PublicKey(Buffer.from(x ?? '', 'base64url'));
  return { publicKey: () => publicKey, rawSecretKey: () => seed };
}

/**
 * A fresh ledger account of `environment`: its public key and its secret sealed under that
 * environment's KEK (the secret itself never leaves here).
 */
export async function newAccountKeys(environment: Environment): Promise<AccountKeys> {
  const keys = randomKeys();
  try {
    return { publicKey: keys.publicKey(), sealedSecret: await sealSecret(environment, keys) };
  } finally {
    keys.rawSecretKey().fill(0);
  }
}
