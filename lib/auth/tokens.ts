// Access tokens: signed with jose, verified with aws-jwt-verify (issuer, audience, expiry, kid, alg).
import type { webcrypto } from 'node:crypto';
import { JwtVerifier } from 'aws-jwt-verify';
import type { Fetcher } from 'aws-jwt-verify/https';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { importJWK, SignJWT } from 'jose';
import { readSecretJson } from '../aws/secrets.ts';
import { config } from '../config.ts';
import { Problem, serviceUnavailable, unauthorized } from '../http/problem.ts';
import type { SigningKeyRing } from './signing-keys.ts';
import { TOKEN_ALGORITHM } from './signing-keys.ts';

export interface AccessTokenClaims {
  /** The client the token was issued to. */
  sub: string;
  /** The application the client belongs to; must match the x-service-auth key's application. */
  app: string;
}

/** The signing ring is re-read after this long, so a rotation reaches warm functions without a deploy. */
const KEY_RING_TTL_MS = 5 * 60 * 1000;
let keyRing: { ring: SigningKeyRing; readAt: number; imported: Map<string, webcrypto.CryptoKey> } | undefined;

/** The active key, imported once per ring read (importing a JWK costs as much as signing). */
async function activeSigningKey(): Promise<{ kid: string; key: webcrypto.CryptoKey }> {
  const { SIGNING_KEYS_SECRET_ID, KEY_FETCH_TIMEOUT_MS } = config();
  if (!SIGNING_KEYS_SECRET_ID) throw new Error('SIGNING_KEYS_SECRET_ID is not configured');
  if (!keyRing || Date.now() - keyRing.readAt > KEY_RING_TTL_MS) {
    const ring = (await readSecretJson(SIGNING_KEYS_SECRET_ID, KEY_FETCH_TIMEOUT_MS)) as SigningKeyRing;
    keyRing = { ring, readAt: Date.now(), imported: new Map() };
  }
  const active = keyRing.ring.keys.find((k) => k.kid === keyRing?.ring.activeKid);
  if (!active) throw serviceUnavailable('No token signing key is configured.');
  let key = keyRing.imported.get(active.kid);
  if (!key) {
    key = (await importJWK(active.privateJwk, TOKEN_ALGORITHM)) as webcrypto.CryptoKey;
    keyRing.imported.set(active.kid, key);
  }
  return { kid: active.kid, key };
}

export async function signAccessToken(claims: AccessTokenClaims, now: Date): Promise<string> {
  const { TOKEN_ISSUER, TOKEN_AUDIENCE, TOKEN_TTL_SECONDS } = config();
  const { kid, key } = await activeSigningKey();
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ app: claims.app })
    .setProtectedHeader({ alg: TOKEN_ALGORITHM, kid, typ: 'JWT' })
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setSubject(claims.sub)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + TOKEN_TTL_SECONDS)
    .setJti(crypto.randomUUID())
    .sign(key);
}

/** aws-jwt-verify fetches the JWKS through this instead of HTTPS: the JWKS lives in a secret. */
class SecretJwksFetcher implements Fetcher {
  async fetch(): Promise<ArrayBuffer> {
    const { TOKEN_JWKS_SECRET_ID, KEY_FETCH_TIMEOUT_MS } = config();
    if (!TOKEN_JWKS_SECRET_ID) throw new Error('TOKEN_JWKS_SECRET_ID is not configured');
    const jwks = await readSecretJson(TOKEN_JWKS_SECRET_ID, KEY_FETCH_TIMEOUT_MS);
    return new TextEncoder().encode(JSON.stringify(jwks)).buffer as ArrayBuffer;
  }
}

let verifier: ReturnType<typeof createVerifier> | undefined;

function createVerifier() {
  const { TOKEN_ISSUER, TOKEN_AUDIENCE, TOKEN_JWKS_SECRET_ID } = config();
  return JwtVerifier.create(
    {
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      jwksUri: `https://secretsmanager/${TOKEN_JWKS_SECRET_ID}`,
    },
    { jwksCache: new SimpleJwksCache({ fetcher: new SecretJwksFetcher() }) },
  );
}

/** The verified claims of a bearer token, or a 401 (a 504/503 when key material cannot be had). */
export async function verifyAccessToken(token: string): Promise<AccessTokenClaims> {
  verifier ??= createVerifier();
  try {
    const payload = await verifier.verify(token);
    if (typeof payload.sub !== 'string' || typeof payload.app !== 'string') throw unauthorized();
    return { sub: payload.sub, app: payload.app };
  } catch (error) {
    if (error instanceof Problem) throw error;
    throw unauthorized('The bearer token is invalid or expired.');
  }
}
