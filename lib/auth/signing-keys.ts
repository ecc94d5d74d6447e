// Token signing keys (ES256). The private ring lives in one secret (only the token function reads it);
// the public JWKS in another that every API function verifies against. Several kids coexist, so a key
// can be rotated in while tokens signed by the previous one stay valid until they expire.
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

export const TOKEN_ALGORITHM = 'ES256';

export interface SigningKey {
  kid: string;
  createdAt: string;
  privateJwk: JWK;
}

export interface SigningKeyRing {
  activeKid: string | null;
  keys: SigningKey[];
}

export interface Jwks {
  keys: JWK[];
}

export const emptyKeyRing = (): SigningKeyRing => ({ activeKid: null, keys: [] });

export async function newSigningKey(now: Date): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair(TOKEN_ALGORITHM, { extractable: true });
  return { kid: randomUUID(), createdAt: now.toISOString(), privateJwk: await exportJWK(privateKey) };
}

/** Adds a new active key and keeps only the previous one, which still verifies outstanding tokens. */
export async function rotateKeyRing(ring: SigningKeyRing, now: Date): Promise<SigningKeyRing> {
  const added = await newSigningKey(now);
  const previous = ring.keys.find((k) => k.kid === ring.activeKid);
  return { activeKid: added.kid, keys: previous ? [added, previous] : [added] };
}

export function publicJwksOf(ring: SigningKeyRing): Jwks {
  return {
    keys: ring.keys.map(({ kid, privateJwk }) => {
      const { d: _private, ...publicPart } = privateJwk;
      return { ...publicPart, kid, alg: TOKEN_ALGORITHM, use: 'sig' };
    }),
  };
}
