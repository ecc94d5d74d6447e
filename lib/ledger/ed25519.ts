// ed25519 through node:crypto (OpenSSL, native) instead of the SDK's pure-JavaScript @noble/ed25519: the
// same keys and, ed25519 being deterministic, byte-for-byte the same signatures, at a fraction of the CPU
// (signing was the largest single cost of a payment). A NativeKeypair is an SDK Keypair, so everything
// that signs through one (Transaction.sign, fee bumps) signs natively.
import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { Keypair, StrKey } from '@stellar/stellar-sdk';

// The fixed DER headers of an ed25519 key (RFC 8410): PKCS#8 around the 32-byte seed, SPKI around the
// 32-byte public key.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The public key object of a raw 32-byte ed25519 public key. */
export function publicKeyObject(rawPublicKey: Uint8Array): KeyObject {
  return createPublicKey({
    key: Buffer.concat([SPKI_PREFIX, rawPublicKey]),
    format: 'der',
    type: 'spki',
  });
}

/** RFC 8032 verification of `signature` over `data`; false (never a throw) for a malformed signature. */
export function verifySignature(key: KeyObject, data: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  try {
    return verify(null, data, key, signature);
  } catch {
    return false;
  }
}

/** An SDK Keypair that signs and verifies natively; its public key is derived natively too. */
export class NativeKeypair extends Keypair {
  private readonly seed: Uint8Array;
  private readonly privateKey: KeyObject;
  private readonly verifyingKey: KeyObject;

  private constructor(
    seed: Uint8Array,
    privateKey: KeyObject,
    verifyingKey: KeyObject,
    rawPublicKey: Buffer,
  ) {
    // Built from the public key: the SDK would otherwise derive it from the seed in JavaScript.
    super({ type: 'ed25519', publicKey: rawPublicKey });
    this.seed = seed;
    this.privateKey = privateKey;
    this.verifyingKey = verifyingKey;
  }

  /** The keypair of a 32-byte seed (copied: the caller may wipe its own). */
  static fromSeed(rawSeed: Uint8Array): NativeKeypair {
    if (rawSeed.length !== 32) throw new Error('secretKey length is invalid');
    const seed = Uint8Array.from(rawSeed);
    const privateKey = createPrivateKey({
      key: Buffer.concat([PKCS8_PREFIX, seed]),
      format: 'der',
      type: 'pkcs8',
    });
    const verifyingKey = createPublicKey(privateKey);
    const spki = verifyingKey.export({ format: 'der', type: 'spki' });
    return new NativeKeypair(seed, privateKey, verifyingKey, spki.subarray(SPKI_PREFIX.length));
  }

  override canSign(): boolean {
    return true;
  }

  override rawSecretKey(): Uint8Array {
    return this.seed;
  }

  override secret(): string {
    return StrKey.encodeEd25519SecretSeed(Buffer.from(this.seed));
  }

  override sign(data: Uint8Array): Uint8Array {
    return sign(null, data, this.privateKey);
  }

  override verify(data: Uint8Array, signature: Parameters<Keypair['verify']>[1]): boolean {
    const bytes = signature instanceof Uint8Array ? signature : signature.toBytes();
    return verifySignature(this.verifyingKey, data, bytes);
  }
}
