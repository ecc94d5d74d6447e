// Each application's request limits (lib/limits): one fixed window per route group in the table, counted
// as soon as the x-service-auth key is proven. Tenant A's limits are set through the admin CLI's code,
// with a day-long window, so exhausting them takes a few requests whatever the machine's speed; tenant B
// keeps the defaults and is never held by A's windows.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, it } from 'vitest';
import { setLimit, showLimits } from '../../lib/admin/limits.ts';
import { DEFAULT_LIMITS, defaultLimit } from '../../lib/limits/policies.ts';
import { metricNames } from '../../lib/metrics.ts';
import {
  type ApiResponse,
  as,
  type Caller,
  call,
  newCaller,
  newTenant,
  send,
  tokenFor,
} from '../support/api.ts';

const DAY = '86400';

function assertLimited(response: ApiResponse, group: string, quota: number) {
  assert.equal(response.status, 429, JSON.stringify(response.body));
  assert.match(response.body.type, /\/rate-limited$/);
  const retryAfter = Number(response.headers.get('retry-after'));
  assert.ok(retryAfter >= 1 && retryAfter <= 86_400, `Retry-After ${retryAfter}`);
  assert.equal(response.headers.get('ratelimit-policy'), `"${group}";q=${quota};w=86400`);
  assert.equal(response.headers.get('ratelimit'), `"${group}";r=0;t=${retryAfter}`);
}

describe('per-application request limits', () => {
  let a: Caller;
  let b: Caller;

  beforeAll(async () => {
    const tenant = await newTenant();
    // Before A's first request: a function reads an application's limits when it first sees it.
    await setLimit(tenant.applicationId, 'reads', '3', DAY);
    await setLimit(tenant.applicationId, 'writes', '2', DAY);
    a = { tenant, token: await tokenFor(tenant) };
    b = await newCaller();
  });

  it('shows what the admin CLI set beside the defaults', async () => {
    const shown = await showLimits(a.tenant.applicationId);
    assert.deepEqual(
      shown.map(({ group, quota, windowSeconds, source }) => ({ group, quota, windowSeconds, source })),
      [
        { group: 'token', ...DEFAULT_LIMITS.token, source: 'default' },
        { group: 'reads', quota: 3, windowSeconds: 86_400, source: 'set' },
        { group: 'writes', quota: 2, windowSeconds: 86_400, source: 'set' },
        { group: 'sandbox', ...DEFAULT_LIMITS.sandbox, source: 'default' },
        { group: 'registrations', ...DEFAULT_LIMITS.registrations, source: 'default' },
      ],
    );
    await assert.rejects(setLimit(a.tenant.applicationId, 'everything', '1', '1'), /--group must be one of/);
    await assert.rejects(setLimit(a.tenant.applicationId, 'reads', '0', '1'), /--quota/);
    await assert.rejects(setLimit(a.tenant.applicationId, 'reads', '1', '86401'), /--window/);
  });

  it('answers A 429 with Retry-After, RateLimit and RateLimit-Policy past its limit, before anything else is read; B and A’s other groups go on', async () => {
    for (const left of [2, 1, 0]) {
      const answer = await as(a, '/assets');
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.match(answer.headers.get('ratelimit') ?? '', new RegExp(`^"reads";r=${left};t=\\d+$`));
      assert.equal(answer.headers.get('ratelimit-policy'), '"reads";q=3;w=86400');
    }
    assertLimited(await as(a, '/assets'), 'reads', 3);
    // Counted before the token is checked and before the path is: a bad token or an id that is no
    // UUID is still a 429, not a 401 or a 400.
    assertLimited(
      await call('/wallets/not-a-uuid', { apiKey: a.tenant.apiKey, token: 'not-a-token' }),
      'reads',
      3,
    );
    // B's reads are its own: the default limit, and nothing of A's window.
    const theirs = await as(b, '/assets');
    assert.equal(theirs.status, 200);
    // The stack's default (RATE_LIMIT_SCALE times DEFAULT_LIMITS: test/setup.ts).
    const reads = defaultLimit('reads');
    assert.equal(theirs.headers.get('ratelimit-policy'), `"reads";q=${reads.quota};w=${reads.windowSeconds}`);
    // A's writes have their own window: a malformed body is still read (400) until they are used too.
    const malformed = { method: 'POST', apiKey: a.tenant.apiKey, token: a.token, body: '{"walletName":' };
    assert.equal((await send('/wallets', malformed)).status, 400);
    assert.equal((await send('/wallets', malformed)).status, 400);
    const refused = await send('/wallets', malformed);
    assert.equal(refused.status, 429, JSON.stringify(refused.body));
    assert.equal(refused.headers.get('ratelimit-policy'), '"writes";q=2;w=86400');
    // A wrong key is never counted (nothing was proven): a 401, for A's key's window as for anyone.
    assert.equal((await call('/assets', { apiKey: 'pgw_sandbox_wrong', token: a.token })).status, 401);

    // Operations see whose window filled: a RequestLimitReached line when an execution environment
    // first finds a window full, not one per refused request (a flood costs a line, not a line a request).
    const reached = (subject: string, group: string) =>
      readFileSync(`${process.env.TEST_DATA_DIR}/function-output.jsonl`, 'utf8')
        .split('\n')
        .filter((line) => line.includes(metricNames.requestLimitReached))
        .map((line) => JSON.parse(line))
        .filter((line) => line.subject === subject && line.group === group && line.quota === '3');
    const readsOfA = reached(`app#${a.tenant.applicationId}`, 'reads').length;
    assert.ok(readsOfA >= 1, 'a line for A’s full reads window');
    for (let i = 0; i < 3; i++) assert.equal((await as(a, '/assets')).status, 429);
    assert.equal(reached(`app#${a.tenant.applicationId}`, 'reads').length, readsOfA);
    assert.equal(reached(`app#${b.tenant.applicationId}`, 'reads').length, 0);
  });

  it('counts the token route per proven application key, failed requests included; another application is not held', async () => {
    const tenant = await newTenant();
    await setLimit(tenant.applicationId, 'token', '2', DAY);
    const wrong = { clientId: tenant.clientId, clientSecret: 'pgwcs_wrong' };
    const token = (body: object, apiKey = tenant.apiKey) =>
      call('/auth/token', { method: 'POST', apiKey, body });
    assert.equal((await token(wrong)).status, 401);
    assert.equal((await token({ clientId: tenant.clientId, clientSecret: tenant.clientSecret })).status, 200);
    assertLimited(await token({ clientId: tenant.clientId, clientSecret: tenant.clientSecret }), 'token', 2);
    // Another application naming this client is counted against its own key, not this one's.
    const other = await newTenant();
    assert.equal(
      (await token({ clientId: tenant.clientId, clientSecret: tenant.clientSecret }, other.apiKey)).status,
      401,
    );
    assert.equal(
      (await token({ clientId: other.clientId, clientSecret: other.clientSecret }, other.apiKey)).status,
      200,
    );
  });
});
