import assert from 'node:assert/strict';
import { generateKeyPair, importJWK, SignJWT } from 'jose';
import { beforeAll, describe, it } from 'vitest';
import { type NewTenant, revokeClientById } from '../../lib/admin/tenants.ts';
import { type ApiResponse, call, newTenant, testSigningKeyRing, tokenFor } from '../support/api.ts';

const ISSUER = 'https://auth.payments-gateway.dev';
const AUDIENCE = 'payments-gateway-api';

/** Signs a token with the stack's real active key, so only the claim under test is wrong. */
async function mintWithRealKey(
  claims: Record<string, unknown>,
  options: { expiresAt?: number; kid?: string } = {},
) {
  const ring = testSigningKeyRing();
  const key = ring.keys.find((k) => k.kid === ring.activeKid);
  assert.ok(key);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: options.kid ?? key.kid })
    .setIssuedAt(now - 60)
    .setExpirationTime(options.expiresAt ?? now + 300)
    .sign(await importJWK(key.privateJwk, 'ES256'));
}

/** The stack's active signing key, as one who stole it would hold it. */
async function activeSigningKey() {
  const ring = testSigningKeyRing();
  const key = ring.keys.find((k) => k.kid === ring.activeKid);
  assert.ok(key);
  return { key, privateKey: await importJWK(key.privateJwk, 'ES256') };
}

/** The claims exactly as given (SignJWT adds none of its own), signed with the stack's real active key. */
async function signAsGiven(payload: Record<string, unknown>) {
  const { key, privateKey } = await activeSigningKey();
  return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid: key.kid }).sign(privateKey);
}

function assertUnauthorized(response: ApiResponse) {
  assert.equal(response.status, 401, JSON.stringify(response.body));
  assert.equal(response.headers.get('content-type'), 'application/problem+json');
  assert.match(response.body.type, /\/unauthorized$/);
  assert.ok(response.headers.get('x-request-id'));
}

describe('bearer-token authentication on protected routes', () => {
  let tenant: NewTenant;
  let other: NewTenant;
  let token: string;
  beforeAll(async () => {
    [tenant, other] = await Promise.all([newTenant(), newTenant()]);
    token = await tokenFor(tenant);
  });

  it('reads GET /assets with the key and a token', async () => {
    const response = await call('/assets', { apiKey: tenant.apiKey, token });
    assert.equal(response.status, 200);
    assert.ok(response.headers.get('x-request-id'));
    assert.ok(response.body.data.some((a: { assetCode: string }) => a.assetCode === 'USDC'));
  });

  it('refuses a request without x-service-auth, or without a token', async () => {
    assertUnauthorized(await call('/assets', { token }));
    assertUnauthorized(await call('/assets', { apiKey: tenant.apiKey }));
    assertUnauthorized(
      await call('/assets', { apiKey: tenant.apiKey, headers: { authorization: `Basic ${token}` } }),
    );
  });

  it("refuses a valid token presented with another application's key", async () => {
    assertUnauthorized(await call('/assets', { apiKey: other.apiKey, token }));
  });

  it('refuses a token signed by a key the service does not hold', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const ring = testSigningKeyRing();
    const forged = await new SignJWT({ app: tenant.applicationId })
      .setProtectedHeader({ alg: 'ES256', kid: ring.activeKid ?? 'x' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(tenant.clientId)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    assertUnauthorized(await call('/assets', { apiKey: tenant.apiKey, token: forged }));
  });

  it('refuses expired, wrong-audience, wrong-issuer and unknown-kid tokens signed with the real key', async () => {
    const base = { app: tenant.applicationId, sub: tenant.clientId, iss: ISSUER, aud: AUDIENCE };
    const sanity = await mintWithRealKey(base);
    assert.equal((await call('/assets', { apiKey: tenant.apiKey, token: sanity })).status, 200);

    const expired = await mintWithRealKey(base, { expiresAt: Math.floor(Date.now() / 1000) - 5 });
    assertUnauthorized(await call('/assets', { apiKey: tenant.apiKey, token: expired }));
    const wrongAudience = await mintWithRealKey({ ...base, aud: 'someone-else' });
    assertUnauthorized(await call('/assets', { apiKey: tenant.apiKey, token: wrongAudience }));
    const wrongIssuer = await mintWithRealKey({ ...base, iss: 'https://evil.example' });
    assertUnauthorized(await call('/assets', { apiKey: tenant.apiKey, token: wrongIssuer }));
    const unknownKid = await mintWithRealKey(base, { kid: crypto.randomUUID() });
    assertUnauthorized(await call('/assets', { apiKey: tenant.apiKey, token: unknownKid }));
  });

  it('says "expired" (RFC 6750) only of a token whose signature is good and whose exp has passed', async () => {
    const base = { app: tenant.applicationId, sub: tenant.clientId, iss: ISSUER, aud: AUDIENCE };
    const past = Math.floor(Date.now() / 1000) - 5;
    const expired = await call('/assets', {
      apiKey: tenant.apiKey,
      token: await mintWithRealKey(base, { expiresAt: past }),
    });
    assertUnauthorized(expired);
    assert.match(expired.body.detail, /expired: get a new one from POST \/v1\/auth\/token/);
    assert.equal(
      expired.headers.get('www-authenticate'),
      'Bearer error="invalid_token", error_description="The access token expired"',
    );
    // Expired too, but signed by a key the service does not hold: invalid, never "expired".
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT(base)
      .setProtectedHeader({ alg: 'ES256', kid: testSigningKeyRing().activeKid ?? 'x' })
      .setIssuedAt(past - 60)
      .setExpirationTime(past)
      .sign(privateKey);
    const refused = await call('/assets', { apiKey: tenant.apiKey, token: forged });
    assertUnauthorized(refused);
    assert.doesNotMatch(refused.body.detail, /expired/);
    assert.equal(
      refused.headers.get('www-authenticate'),
      'Bearer error="invalid_token", error_description="The access token is invalid"',
    );
    // No token at all: the scheme alone (RFC 6750 §3.1).
    const none = await call('/assets', { apiKey: tenant.apiKey });
    assert.equal(none.headers.get('www-authenticate'), 'Bearer');
  });

  it('refuses a token signed with the real key that lacks exp, iat, aud or iss', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      app: tenant.applicationId,
      sub: tenant.clientId,
      iss: ISSUER,
      aud: AUDIENCE,
      iat: now - 60,
      exp: now + 300,
    };
    assert.equal(
      (await call('/assets', { apiKey: tenant.apiKey, token: await signAsGiven(claims) })).status,
      200,
    );
    for (const missing of ['exp', 'iat', 'aud', 'iss'] as const) {
      const { [missing]: _, ...rest } = claims;
      assertUnauthorized(await call('/assets', { apiKey: tenant.apiKey, token: await signAsGiven(rest) }));
    }
  });

  it('refuses a token signed with the real key that outlives what the token route issues, is issued in the future, or names a key of its own', async () => {
    const { key, privateKey } = await activeSigningKey();
    const now = Math.floor(Date.now() / 1000);
    const claims = { app: tenant.applicationId, sub: tenant.clientId, iss: ISSUER, aud: AUDIENCE };
    const mint = (times: { iat: number; exp: number }, header: Record<string, unknown> = {}) =>
      new SignJWT({ ...claims, ...times })
        .setProtectedHeader({ alg: 'ES256', kid: key.kid, ...header })
        .sign(privateKey);
    const use = async (token: string) => call('/assets', { apiKey: tenant.apiKey, token });
    // What the token route issues (900 s), at the edge of the 60 s skew: accepted.
    assert.equal((await use(await mint({ iat: now - 10, exp: now - 10 + 960 }))).status, 200);
    assert.equal((await use(await mint({ iat: now + 30, exp: now + 900 }))).status, 200);
    // Ten years; a lifetime just past 900 s and the skew; issued two minutes from now.
    assertUnauthorized(await use(await mint({ iat: now - 60, exp: now + 10 * 365 * 86_400 })));
    assertUnauthorized(await use(await mint({ iat: now - 10, exp: now - 10 + 961 })));
    assertUnauthorized(await use(await mint({ iat: now + 120, exp: now + 600 })));
    // A header pointing at, or carrying, a key: the signature is ours, the token is still refused.
    const { d: _, ...publicJwk } = key.privateJwk as Record<string, unknown>;
    for (const header of [
      { jku: 'https://evil.example/jwks.json' },
      { x5u: 'https://evil.example/cert.pem' },
      { jwk: publicJwk },
    ])
      assertUnauthorized(await use(await mint({ iat: now - 10, exp: now + 300 }, header)));
  });

  it('refuses an alg:none token and a tampered payload', async () => {
    // Both carry complete, valid claims (the caller's own token's, accepted below): the algorithm or the
    // signature is the only fault, so a verifier that took `none` or skipped the signature would let them in.
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const decode = (part: string | undefined) => JSON.parse(Buffer.from(part ?? '', 'base64url').toString());
    const [header, payload, signature] = token.split('.');
    const claims = decode(payload) as Record<string, unknown> & { exp: number };
    assert.equal((await call('/assets', { apiKey: tenant.apiKey, token })).status, 200);
    const none = `${encode({ ...decode(header), alg: 'none' })}.${encode(claims)}.`;
    assertUnauthorized(await call('/assets', { apiKey: tenant.apiKey, token: none }));
    // A second earlier expiry: claims the real key would sign and the service accept, under another payload's signature.
    const changed = { ...claims, exp: claims.exp - 1 };
    const signed = await signAsGiven(changed);
    assert.equal((await call('/assets', { apiKey: tenant.apiKey, token: signed })).status, 200);
    const tampered = `${header}.${encode(changed)}.${signature}`;
    assertUnauthorized(await call('/assets', { apiKey: tenant.apiKey, token: tampered }));
  });

  it('refuses the token of a revoked client', async () => {
    const revoked = await newTenant();
    const revokedToken = await tokenFor(revoked);
    assert.equal((await call('/assets', { apiKey: revoked.apiKey, token: revokedToken })).status, 200);
    await revokeClientById(revoked.clientId);
    assertUnauthorized(await call('/assets', { apiKey: revoked.apiKey, token: revokedToken }));
  });

  it('ignores x-association-id: the association comes from the token', async () => {
    const otherToken = await tokenFor(other);
    const create = (apiKey: string, bearer: string, walletName: string, headers: Record<string, string>) =>
      call('/wallets', {
        method: 'POST',
        apiKey,
        token: bearer,
        headers,
        body: { walletName, assetCode: 'USDC', ownAccount: true },
      });
    const theirs = await create(other.apiKey, otherToken, 'Theirs', {});
    assert.equal(theirs.status, 201, JSON.stringify(theirs.body));
    const spoof = { 'x-association-id': other.associationId };
    // Written with tenant's token and other's association id in the header: the wallet is tenant's.
    const mine = await create(tenant.apiKey, token, 'Mine', spoof);
    assert.equal(mine.status, 201, JSON.stringify(mine.body));

    const ids = async (apiKey: string, bearer: string, headers: Record<string, string> = {}) => {
      const list = await call('/wallets?limit=100', { apiKey, token: bearer, headers });
      assert.equal(list.status, 200);
      return list.body.data.map((w: { id: string }) => w.id);
    };
    assert.deepEqual(await ids(tenant.apiKey, token, spoof), [mine.body.id]);
    assert.deepEqual(await ids(other.apiKey, otherToken), [theirs.body.id]);
    const read = await call(`/wallets/${mine.body.id}`, { apiKey: tenant.apiKey, token, headers: spoof });
    assert.equal(read.status, 200);
    assert.equal(read.body.walletName, 'Mine');
    const foreign = await call(`/wallets/${theirs.body.id}`, {
      apiKey: tenant.apiKey,
      token,
      headers: spoof,
    });
    assert.equal(foreign.status, 404);
  });
});
