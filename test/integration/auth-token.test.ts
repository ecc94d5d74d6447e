import assert from 'node:assert/strict';
import { request } from 'node:http';
import { beforeAll, describe, it } from 'vitest';
import type { NewTenant } from '../../lib/admin/tenants.ts';
import { addApiKey, addClient, revokeApiKeyByValue } from '../../lib/admin/tenants.ts';
import { type ApiResponse, baseUrl, call, newTenant, testSigningKeyRing } from '../support/api.ts';

const ISSUER = 'https://auth.payments-gateway.dev';
const AUDIENCE = 'payments-gateway-api';

/** The header and claims of a JWT, decoded without verifying it. */
function decodeJwt(token: string) {
  const parts = token.split('.');
  assert.equal(parts.length, 3, 'a JWS compact token has three parts');
  const [header, payload] = parts
    .slice(0, 2)
    .map((part: string) => JSON.parse(Buffer.from(part, 'base64url').toString()));
  return { header, payload };
}

const tokenRequest = (tenant: NewTenant, overrides: Record<string, unknown> = {}) =>
  call('/auth/token', {
    method: 'POST',
    apiKey: tenant.apiKey,
    body: { clientId: tenant.clientId, clientSecret: tenant.clientSecret, ...overrides },
  });

/**
 * A token request sent from another loopback address (all of 127/8 is this machine): the gateway sees
 * it as another source. The status only.
 */
function tokenRequestFrom(
  source: string,
  apiKey: string,
  credentials: { clientId: string; clientSecret: string },
): Promise<number> {
  const body = JSON.stringify(credentials);
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl()}/auth/token`,
      {
        method: 'POST',
        localAddress: source,
        headers: { 'x-service-auth': apiKey, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The fixed window (TOKEN_RATE_WINDOW_SECONDS: 60 s in the stack) a moment falls in. */
const windowOf = (ms: number) => Math.floor(ms / 60_000);

interface Run {
  statuses: number[];
  /** How many were let through in the window of the 429; undefined when that cannot be told (below). */
  inWindow: number | undefined;
}

/**
 * Sends requests (`send(i)` answers one's status) until one is refused with 429, and counts those let through
 * (`allowed`) in the window of that 429: exactly the limit, however slowly the run went, since requests of
 * an earlier window count there. Unknown when a round trip crossed into that window (which one counted
 * it?): rare, and the caller runs again afresh.
 */
async function sendUntilRefused(
  send: (i: number) => Promise<number>,
  limit: number,
  allowed: number,
): Promise<Run> {
  const sent: { status: number; from: number; to: number }[] = [];
  // 2 × limit + 1 cannot all fit in the (at most two) windows the loop spans.
  for (let i = 0; i < 2 * limit + 1 && sent.at(-1)?.status !== 429; i++) {
    const from = windowOf(Date.now());
    const status = await send(i);
    sent.push({ status, from, to: windowOf(Date.now()) });
  }
  const statuses = sent.map(({ status }) => status);
  assert.ok(
    statuses.every((s) => s === allowed || s === 429),
    statuses.join(','),
  );
  const refused = sent.at(-1);
  assert.ok(refused?.status === 429, `expected a 429 among ${statuses.join(',')}`);
  const known = sent.every(({ from, to }) => from === to || to < refused.to);
  const inWindow = sent.filter(({ status, from }) => status === allowed && from === refused.to).length;
  return { statuses, inWindow: known ? inWindow : undefined };
}

/** Runs `attempt` (a sendUntilRefused with subjects of its own) until its count is known; it must be `limit`. */
async function letThroughExactly<T extends Run>(limit: number, attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    const run = await attempt();
    if (run.inWindow !== undefined) {
      assert.equal(run.inWindow, limit, `let through in the refusing window: ${run.statuses.join(',')}`);
      return run;
    }
    assert.ok(tries < 3, 'three runs each had a request cross into the refusing window');
  }
}

/** Failing requests (`next` says each one's source and credentials) until one is refused with 429. */
const failUntilRefused = (
  apiKey: string,
  next: (i: number) => { source: string; clientId: string; clientSecret: string },
  limit: number,
) =>
  sendUntilRefused(
    (i) => {
      const { source, ...credentials } = next(i);
      return tokenRequestFrom(source, apiKey, credentials);
    },
    limit,
    401,
  );

function assertProblem(response: ApiResponse, status: number, slug: string) {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.equal(response.headers.get('content-type'), 'application/problem+json');
  assert.ok(response.headers.get('x-request-id'));
  assert.equal(response.body.status, status);
  assert.match(response.body.type, new RegExp(`/${slug}$`));
  assert.equal(response.body.requestId, response.headers.get('x-request-id'));
  assert.equal(response.body.instance, '/v1/auth/token');
}

describe('POST /auth/token', () => {
  let tenant: NewTenant;
  let other: NewTenant;
  beforeAll(async () => {
    [tenant, other] = await Promise.all([newTenant(), newTenant()]);
  });

  it('issues a bearer token for valid client credentials', async () => {
    const response = await tokenRequest(tenant);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.ok(response.headers.get('x-request-id'));
    const { accessToken, tokenType, expiresIn, associationId } = response.body;
    assert.equal(tokenType, 'Bearer');
    assert.equal(associationId, tenant.associationId);
    assert.ok(Number.isInteger(expiresIn) && expiresIn > 0);
    const { header, payload } = decodeJwt(accessToken);
    assert.equal(header.alg, 'ES256');
    assert.ok(header.kid);
    assert.equal(payload.sub, tenant.clientId);
    assert.equal(payload.app, tenant.applicationId);
    assert.equal(payload.iss, ISSUER);
    assert.equal(payload.aud, AUDIENCE);
    assert.equal(payload.exp - payload.iat, expiresIn);
  });

  it('refuses a wrong secret, an unknown client and a missing key with 401', async () => {
    assertProblem(await tokenRequest(tenant, { clientSecret: 'pgwcs_wrong' }), 401, 'unauthorized');
    assertProblem(await tokenRequest(tenant, { clientId: crypto.randomUUID() }), 401, 'unauthorized');
    const noKey = await call('/auth/token', {
      method: 'POST',
      body: { clientId: tenant.clientId, clientSecret: tenant.clientSecret },
    });
    assertProblem(noKey, 401, 'unauthorized');
    assertProblem(
      await call('/auth/token', { method: 'POST', apiKey: 'pgw_sandbox_forged', body: {} }),
      401,
      'unauthorized',
    );
  });

  it("refuses another application's client presented with this application's key (401)", async () => {
    const response = await call('/auth/token', {
      method: 'POST',
      apiKey: tenant.apiKey,
      body: { clientId: other.clientId, clientSecret: other.clientSecret },
    });
    assertProblem(response, 401, 'unauthorized');
  });

  it('refuses a revoked API key with 401 while a second key of the application still works', async () => {
    const fresh = await newTenant();
    const { apiKey: secondKey } = await addApiKey(fresh.applicationId);
    await revokeApiKeyByValue(fresh.apiKey);
    assertProblem(await tokenRequest(fresh), 401, 'unauthorized');
    assert.equal((await tokenRequest({ ...fresh, apiKey: secondKey })).status, 200);
  });

  it('answers malformed bodies with 400 naming the field', async () => {
    const badJson = await call('/auth/token', {
      method: 'POST',
      apiKey: tenant.apiKey,
      body: '{"clientId":',
    });
    assertProblem(badJson, 400, 'bad-request');

    const missing = await call('/auth/token', {
      method: 'POST',
      apiKey: tenant.apiKey,
      body: { clientId: 'x' },
    });
    assertProblem(missing, 400, 'bad-request');
    assert.deepEqual(missing.body.errors, [{ field: 'clientSecret', message: 'is required' }]);

    const wrongType = await tokenRequest(tenant, { clientId: 42 });
    assertProblem(wrongType, 400, 'bad-request');
    assert.deepEqual(wrongType.body.errors, [{ field: 'clientId', message: 'must be of type string' }]);

    assertProblem(await call('/auth/token', { method: 'POST', apiKey: tenant.apiKey }), 400, 'bad-request');
    assertProblem(
      await call('/auth/token', { method: 'POST', apiKey: tenant.apiKey, body: '[]' }),
      400,
      'bad-request',
    );
  });

  it('answers a non-JSON body with 415 and an oversized one with 413', async () => {
    const form = await call('/auth/token', {
      method: 'POST',
      apiKey: tenant.apiKey,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'clientId=a&clientSecret=b',
    });
    assertProblem(form, 415, 'unsupported-media-type');
    const huge = await tokenRequest(tenant, { padding: 'x'.repeat(70 * 1024) });
    assertProblem(huge, 413, 'payload-too-large');
  });

  it('limits token requests per client with 429 and Retry-After', async () => {
    const limit = 20; // the default TOKEN_RATE_LIMIT per 60 s window
    const { refused } = await letThroughExactly(limit, async () => {
      const limited = await newTenant();
      const responses: ApiResponse[] = [];
      const run = await sendUntilRefused(
        async () => {
          responses.push(await tokenRequest(limited));
          return responses.at(-1)?.status ?? 0;
        },
        limit,
        200,
      );
      return { ...run, refused: responses.at(-1) as ApiResponse };
    });
    assertProblem(refused, 429, 'rate-limited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    // The limit is per client: another client is not affected.
    assert.equal((await tokenRequest(other)).status, 200);
  });

  it("cannot spend another tenant's window: a key naming its clientId (sandbox or production) is counted against the key's application", async () => {
    const [victim, production] = await Promise.all([newTenant(), newTenant('production')]);
    for (const [target, source] of [
      [victim, '127.0.2.1'],
      [production, '127.0.2.2'],
    ] as const) {
      // The named client's real secret too: another application's key never authenticates it.
      const secrets = ['pgwcs_wrong', target.clientSecret];
      // TOKEN_FAILURE_LIMIT (20) from one source, exactly.
      const { attacker } = await letThroughExactly(20, async () => {
        const attacker = await newTenant();
        const run = await failUntilRefused(
          attacker.apiKey,
          (i) => ({ source, clientId: target.clientId, clientSecret: secrets[i % 2] as string }),
          20,
        );
        return { ...run, attacker };
      });
      // The client it named still gets its tokens, from anywhere...
      const own = await tokenRequest(target);
      assert.equal(own.status, 200, JSON.stringify(own.body));
      assert.equal(await tokenRequestFrom(source, target.apiKey, target), 200);
      // ...while the attacker's application is refused from there, even for its own client.
      assert.equal(await tokenRequestFrom(source, attacker.apiKey, attacker), 429);
    }
  });

  it('counts failures per source within the application, and per application over its sources', async () => {
    const bystander = await newTenant();
    const wrongFor = (tenant: NewTenant) => ({ clientId: tenant.clientId, clientSecret: 'pgwcs_wrong' });
    // TOKEN_FAILURE_LIMIT (20) from one source, exactly: that source is refused, even with the right secret...
    const { failing } = await letThroughExactly(20, async () => {
      const failing = await newTenant();
      const run = await failUntilRefused(
        failing.apiKey,
        () => ({ source: '127.0.3.1', ...wrongFor(failing) }),
        20,
      );
      return { ...run, failing };
    });
    assert.equal(await tokenRequestFrom('127.0.3.1', failing.apiKey, failing), 429);
    // ...another source of the application is not, nor another application from that source.
    assert.equal(await tokenRequestFrom('127.0.3.2', failing.apiKey, failing), 200);
    assert.equal(await tokenRequestFrom('127.0.3.1', bystander.apiKey, bystander), 200);

    // TOKEN_APPLICATION_FAILURE_LIMIT (100) exactly, over 20 sources none near its own limit: the application
    // is refused from every source, a new one too; other applications are not.
    const { spread } = await letThroughExactly(100, async () => {
      const spread = await newTenant();
      const run = await failUntilRefused(
        spread.apiKey,
        (i) => ({ source: `127.0.4.${1 + (i % 20)}`, ...wrongFor(spread) }),
        100,
      );
      return { ...run, spread };
    });
    assert.equal(await tokenRequestFrom('127.0.5.1', spread.apiKey, spread), 429);
    assert.equal(await tokenRequestFrom('127.0.5.1', bystander.apiKey, bystander), 200);
  });

  it('issues a token to a client with no association, which every other route then refuses with 403', async () => {
    const { clientId, clientSecret } = await addClient(tenant.applicationId, null);
    const response = await tokenRequest(tenant, { clientId, clientSecret });
    assert.equal(response.status, 200);
    assert.equal(response.body.associationId, null);
    const assets = await call('/assets', { apiKey: tenant.apiKey, token: response.body.accessToken });
    assert.equal(assets.status, 403);
    assert.match(assets.body.type, /\/forbidden$/);
    assert.equal(assets.headers.get('content-type'), 'application/problem+json');
  });

  it('works again for the seeded tenant written by the stack', async () => {
    const seeded = JSON.parse(process.env.TEST_SEEDED_TENANT ?? '{}') as NewTenant;
    assert.ok(seeded.clientId && seeded.applicationId, 'the stack exports its seeded tenant');
    const response = await tokenRequest(seeded);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.associationId, seeded.associationId);
    const { header, payload } = decodeJwt(response.body.accessToken);
    // Signed with a key of the stack's ring, for the seeded client of the seeded application.
    assert.equal(header.alg, 'ES256');
    assert.ok(
      testSigningKeyRing().keys.some((k) => k.kid === header.kid),
      `kid ${header.kid} is in the ring`,
    );
    assert.equal(payload.sub, seeded.clientId);
    assert.equal(payload.app, seeded.applicationId);
    assert.equal(payload.iss, ISSUER);
    assert.equal(payload.aud, AUDIENCE);
    const now = Math.floor(Date.now() / 1000);
    assert.ok(payload.iat <= now + 5 && payload.exp > now, `iat ${payload.iat}, exp ${payload.exp}`);
    assert.equal(payload.exp - payload.iat, response.body.expiresIn);
    // And the token is accepted as the seeded tenant's.
    const assets = await call('/assets', { apiKey: seeded.apiKey, token: response.body.accessToken });
    assert.equal(assets.status, 200);
  });
});
