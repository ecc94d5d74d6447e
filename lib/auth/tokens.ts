// Access tokens: signed with jose, verified with aws-jwt-verify (issuer, audience, expiry, kid, alg),
// every claim we sign required.
import type { webcrypto } from 'node:crypto';
import { JwtVerifier } from 'aws-jwt-verify';
import { JwtExpiredError } from 'aws-jwt-verify/error';
import type { Fetcher } from 'aws-jwt-verify/https';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { importJWK, SignJWT } from 'jose';
import { readSecretJson } from '../aws/secrets.ts';
import { config } from '../config.ts';
import { Problem, serviceUnavailable } from '../http/problem.ts';
import type { SigningKeyRing } from './signing-keys.ts';
import { TOKEN_ALGORITHM } from './signing-keys.ts';

export interface AccessTokenClaims {
  /** The client the token was issued to. */
  sub: string;
  /** The application the client belongs to; must match the x-service-auth key's application. */
  app: string;
  /**
   * A portal person's token (lib/people): `sub` is their email, `app` is `portal`, and the token names
   * the one tenant and the role it was minted for. The server reads the role again on every call.
   */
  person?: PersonClaims;
}

export interface PersonClaims {
  env: string;
  assoc: string;
  role: string;
}

interface ActiveSigningKey {
  kid: string;
  key: webcrypto.CryptoKey;
}

/**
 * The active key of each ring read, imported once (importing a JWK costs as much as signing). Keyed by
 * the ring object Parameters keeps in its cache, so an import lives exactly as long as its ring: when
 * the cache age passes and a rotated ring is read, its active key is imported afresh.
 */
const importedKeys = new WeakMap<SigningKeyRing, Promise<ActiveSigningKey>>();

async function importActiveKey(ring: SigningKeyRing): Promise<ActiveSigningKey> {
  const active = ring.keys.find((k) => k.kid === ring.activeKid);
  if (!active) throw serviceUnavailable('No token signing key is configured.');
  const key = (await importJWK(active.privateJwk, TOKEN_ALGORITHM)) as webcrypto.CryptoKey;
  return { kid: active.kid, key };
}

async function activeSigningKey(): Promise<ActiveSigningKey> {
  const { SIGNING_KEYS_SECRET_ID } = config();
  if (!SIGNING_KEYS_SECRET_ID) throw new Error('SIGNING_KEYS_SECRET_ID is not configured');
  const ring = (await readSecretJson(SIGNING_KEYS_SECRET_ID)) as SigningKeyRing | null;
  if (!Array.isArray(ring?.keys)) throw serviceUnavailable('No token signing key is configured.');
  let imported = importedKeys.get(ring);
  if (!imported) {
    imported = importActiveKey(ring);
    importedKeys.set(ring, imported);
  }
  return imported;
}

export async function signAccessToken(
  claims: AccessTokenClaims,
  now: Date,
  ttlSeconds = config().TOKEN_TTL_SECONDS,
): Promise<string> {
  const { TOKEN_ISSUER, TOKEN_AUDIENCE } = config();
  const { kid, key } = await activeSigningKey();
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ app: claims.app, ...claims.person })
    .setProtectedHeader({ alg: TOKEN_ALGORITHM, kid, typ: 'JWT' })
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setSubject(claims.sub)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttlSeconds)
    .setJti(crypto.randomUUID())
    .sign(key);
}

/**
 * aws-jwt-verify fetches the JWKS through this instead of HTTPS: the JWKS lives in a secret. Its JWKS
 * cache keeps the keys and asks again only for a kid it has not seen (a rotation), so this read skips
 * the Parameters cache: a cached JWKS would hide a newly rotated key for up to its age.
 */
class SecretJwksFetcher implements Fetcher {
  async fetch(): Promise<ArrayBuffer> {
    const { TOKEN_JWKS_SECRET_ID } = config();
    if (!TOKEN_JWKS_SECRET_ID) throw new Error('TOKEN_JWKS_SECRET_ID is not configured');
    const jwks = await readSecretJson(TOKEN_JWKS_SECRET_ID, { forceFetch: true });
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

/** How far a verifier's clock may be from the token function's: a token's iat may be this far ahead. */
export const TOKEN_CLOCK_SKEW_SECONDS = 60;

/**
 * Header members that carry a key or say where to fetch one: signAccessToken never writes them, and a
 * token naming its own key is refused even though the verifier only ever uses our JWKS.
 */
const KEY_BEARING_HEADERS = ['jku', 'x5u', 'jwk', 'x5c'];

function headerOf(token: string): Record<string, unknown> {
  try {
    return JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8'));
  } catch {
    return {};
  }
}

/**
 * What a token signed with our key must also hold to be one signAccessToken issued: every claim it sets
 * (iss and aud are checked against ours by the verifier; present, as numbers, exp and iat), a lifetime
 * no longer than the one it gives (plus skew), an iat not in the future (beyond skew), and no key of its
 * own in its header. Defence in depth: a leaked signing key cannot mint a ten-year token.
 */
function issuedByUs(header: Record<string, unknown>, payload: Record<string, unknown>, nowSeconds: number) {
  const { exp, iat } = payload;
  return (
    typeof payload.sub === 'string' &&
    typeof payload.app === 'string' &&
    typeof exp === 'number' &&
    typeof iat === 'number' &&
    payload.iss !== undefined &&
    payload.aud !== undefined &&
    exp - iat <= config().TOKEN_TTL_SECONDS + TOKEN_CLOCK_SKEW_SECONDS &&
    iat <= nowSeconds + TOKEN_CLOCK_SKEW_SECONDS &&
    !KEY_BEARING_HEADERS.some((member) => member in header)
  );
}

/**
 * A refused bearer token, RFC 6750 §3: a 401 whose WWW-Authenticate says `invalid_token` and why. An
 * expired one says so in both, so an integrator knows to fetch a new token rather than look for a bug.
 */
export const refusedToken = (reason: 'invalid' | 'expired' = 'invalid') =>
  new Problem(
    401,
    reason === 'expired'
      ? 'The bearer token has expired: get a new one from POST /v1/auth/token.'
      : 'The bearer token is invalid.',
    {
      headers: {
        'WWW-Authenticate': `Bearer error="invalid_token", error_description="The access token ${reason === 'expired' ? 'expired' : 'is invalid'}"`,
      },
    },
  );

/** The verified claims of a bearer token, or a 401 (a 504/503 when key material cannot be had). */
export async function verifyAccessToken(token: string): Promise<AccessTokenClaims> {
  verifier ??= createVerifier();
  try {
    const payload = await verifier.verify(token);
    if (!issuedByUs(headerOf(token), payload, Math.floor(Date.now() / 1000))) throw refusedToken();
    // A person's token (lib/people) also names the tenant and the role it was minted for.
    const { env, assoc, role } = payload as Record<string, unknown>;
    const person =
      typeof env === 'string' && typeof assoc === 'string' && typeof role === 'string'
        ? { person: { env, assoc, role } }
        : {};
    return { sub: payload.sub as string, app: payload.app as string, ...person };
  } catch (error) {
    if (error instanceof Problem) throw error;
    // Thrown only once the signature is verified: the token is ours, and its time is up.
    throw refusedToken(error instanceof JwtExpiredError ? 'expired' : 'invalid');
  }
}
