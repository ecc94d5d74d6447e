// A tenant's API keys and clients as its people manage them (the portal's Developers page), and its
// request log, against the real stack: a secret answered once and never listed or logged, a revoked
// key or client refused at once, roles held by the server, tenants kept apart; the log keeps what
// changed something and what failed, not a read that succeeded, and only the tenant's own.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, it } from 'vitest';
import { routeKeyOf, routes } from '../../lib/routes.ts';
import { as, type Caller, call, newCaller } from '../support/api.ts';
import { captureLogs } from '../support/logs.ts';
import { asPerson, newPerson } from '../support/people.ts';

type Person = Awaited<ReturnType<typeof newPerson>>;

const tokenWith = (apiKey: string, clientId: string, clientSecret: string) =>
  call('/auth/token', { method: 'POST', apiKey, body: { clientId, clientSecret } });

describe('a tenant’s API keys and clients', () => {
  let caller: Caller;
  let owner: Person;
  let viewer: Person;
  let developer: Person;
  beforeAll(async () => {
    caller = await newCaller();
    [owner, viewer, developer] = await Promise.all([
      newPerson(caller.tenant, 'owner'),
      newPerson(caller.tenant, 'viewer'),
      newPerson(caller.tenant, 'developer'),
    ]);
  });

  it('answers a new key once, lists it by prefix and last four only, and refuses it at once when revoked', async () => {
    const made = await asPerson(owner, '/api-keys', { method: 'POST', body: { name: 'CI server' } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const { apiKey, keyId } = made.body;
    assert.match(apiKey, /^pgw_sandbox_[\w-]{43}$/);
    assert.equal(made.body.prefix, 'pgw_sandbox_');
    assert.equal(made.body.last4, apiKey.slice(-4));
    assert.equal(made.body.createdBy, owner.email);
    assert.equal(made.body.status, 'active');

    // The new key works with the tenant's client.
    const { clientId, clientSecret } = caller.tenant;
    assert.equal((await tokenWith(apiKey, clientId, clientSecret)).status, 200);

    const listed = await asPerson(viewer, '/api-keys');
    assert.equal(listed.status, 200);
    const entry = listed.body.data.find((k: { keyId: string }) => k.keyId === keyId);
    const { apiKey: _once, ...shown } = made.body;
    assert.deepEqual(entry, shown);
    assert.ok(!JSON.stringify(listed.body).includes(apiKey), 'the secret is never listed');
    // Newest first: the key the admin CLI made with the tenant comes after it.
    assert.equal(listed.body.data[0].keyId, keyId);
    assert.equal(listed.body.data.length, 2);
    assert.equal(listed.body.data[1].createdBy, null);

    const revoked = await asPerson(owner, `/api-keys/${keyId}`, { method: 'DELETE' });
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.equal(revoked.body.status, 'revoked');
    assert.ok(revoked.body.revokedAt);
    assert.equal((await tokenWith(apiKey, clientId, clientSecret)).status, 401);
    // A token route with the revoked key and a valid token: refused too.
    const withToken = await call('/wallets', { apiKey, token: caller.token });
    assert.equal(withToken.status, 401);
    // Revoking again answers it as it is.
    const again = await asPerson(owner, `/api-keys/${keyId}`, { method: 'DELETE' });
    assert.equal(again.body.revokedAt, revoked.body.revokedAt);
  });

  it('answers a new client’s secret once, and a revoked client gets no token and its tokens are refused', async () => {
    const made = await asPerson(owner, '/clients', { method: 'POST', body: {} });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const { clientId, clientSecret } = made.body;
    assert.match(clientSecret, /^pgwcs_[\w-]{43}$/);
    assert.equal(made.body.secretLast4, clientSecret.slice(-4));
    assert.equal(made.body.name, null);
    const issued = await tokenWith(caller.tenant.apiKey, clientId, clientSecret);
    assert.equal(issued.status, 200);
    assert.equal(issued.body.associationId, caller.tenant.associationId);
    const token = issued.body.accessToken;
    assert.equal((await call('/wallets', { apiKey: caller.tenant.apiKey, token })).status, 200);

    const listed = await asPerson(owner, '/clients');
    const entry = listed.body.data.find((c: { clientId: string }) => c.clientId === clientId);
    assert.equal('clientSecret' in entry, false);
    assert.ok(!JSON.stringify(listed.body).includes(clientSecret));

    const revoked = await asPerson(owner, `/clients/${clientId}`, { method: 'DELETE' });
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.status, 'revoked');
    assert.equal((await tokenWith(caller.tenant.apiKey, clientId, clientSecret)).status, 401);
    assert.equal((await call('/wallets', { apiKey: caller.tenant.apiKey, token })).status, 401);
  });

  it('lets everyone on the team read, and only owners make or revoke (the server refuses, 403)', async () => {
    assert.equal((await asPerson(viewer, '/clients')).status, 200);
    for (const person of [viewer, developer]) {
      const made = await asPerson(person, '/api-keys', { method: 'POST', body: {} });
      assert.equal(made.status, 403, JSON.stringify(made.body));
      assert.match(made.body.detail, /needs owner/);
      assert.equal((await asPerson(person, '/clients', { method: 'POST', body: {} })).status, 403);
    }
    const listed = await asPerson(owner, '/api-keys');
    const keyId = listed.body.data[0].keyId;
    const refused = await asPerson(viewer, `/api-keys/${keyId}`, { method: 'DELETE' });
    assert.equal(refused.status, 403);
    assert.equal((await asPerson(owner, '/api-keys')).body.data[0].status, listed.body.data[0].status);
    // An application cannot manage credentials, whatever it holds.
    assert.equal((await as(caller, '/api-keys', { method: 'POST', body: {} })).status, 401);
  });

  it('keeps tenants apart: another tenant’s key or client is a 404, and never listed', async () => {
    const other = await newCaller();
    const otherOwner = await newPerson(other.tenant, 'owner');
    const theirKey = (await asPerson(otherOwner, '/api-keys', { method: 'POST', body: {} })).body;
    const theirClient = (await asPerson(otherOwner, '/clients', { method: 'POST', body: {} })).body;
    const key = await asPerson(owner, `/api-keys/${theirKey.keyId}`, { method: 'DELETE' });
    assert.equal(key.status, 404);
    assert.equal(key.body.errors[0].field, 'keyId');
    const client = await asPerson(owner, `/clients/${theirClient.clientId}`, { method: 'DELETE' });
    assert.equal(client.status, 404);
    assert.equal(
      (await tokenWith(theirKey.apiKey, other.tenant.clientId, other.tenant.clientSecret)).status,
      200,
    );
    const mine = JSON.stringify([
      (await asPerson(owner, '/api-keys')).body,
      (await asPerson(owner, '/clients')).body,
    ]);
    assert.ok(!mine.includes(theirKey.keyId) && !mine.includes(theirClient.clientId));
    assert.equal((await asPerson(owner, '/api-keys/nothex', { method: 'DELETE' })).status, 400);
  });

  it('never logs a secret it makes', async () => {
    const logs = captureLogs();
    try {
      const { apiFunction } = await import('../../lib/api.ts');
      const { developersOperations } = await import('../../lib/operations/developers.ts');
      const { toApiGatewayEvent, lambdaContext } = await import('../../lib/local/lambda-event.ts');
      const handler = apiFunction('portal', developersOperations as never);
      const route = routes.find((r) => r.operation === 'createApiKey');
      assert.ok(route);
      const event = toApiGatewayEvent(
        {
          method: 'POST',
          url: '/v1/api-keys',
          headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
          body: Buffer.from('{"name":"logged?"}'),
        },
        routeKeyOf(route),
        undefined,
      );
      const result = await handler(event, lambdaContext('portal'));
      assert.equal(result.statusCode, 201, result.body);
      const { apiKey } = JSON.parse(result.body ?? '{}');
      assert.ok(!JSON.stringify(logs.lines).includes(apiKey));
    } finally {
      logs.restore();
    }
  });
});

describe('the request log', () => {
  let caller: Caller;
  let owner: Person;
  beforeAll(async () => {
    caller = await newCaller();
    owner = await newPerson(caller.tenant, 'owner');
  });

  const idOf = (response: { headers: Headers }) => response.headers.get('x-request-id') as string;

  it('keeps what changed something and what failed, not a read that succeeded, newest first', async () => {
    const made = await as(caller, '/wallets', {
      method: 'POST',
      body: { walletName: 'Logged', assetCode: 'USDC', ownAccount: true },
    });
    assert.equal(made.status, 201);
    const refused = await as(caller, '/wallets', { method: 'POST', body: { walletName: '' } });
    assert.equal(refused.status, 400);
    const read = await as(caller, '/wallets');
    assert.equal(read.status, 200);
    const missing = await as(caller, `/transactions/${randomUUID()}`);
    assert.equal(missing.status, 404);

    const log = await asPerson(owner, '/request-log?limit=100');
    assert.equal(log.status, 200, JSON.stringify(log.body));
    const ids = log.body.data.map((e: { requestId: string }) => e.requestId);
    assert.deepEqual(ids.slice(0, 3), [idOf(missing), idOf(refused), idOf(made)]);
    assert.ok(!ids.includes(idOf(read)));
    const [notFound, badRequest, createdEntry] = log.body.data;
    assert.equal(notFound.status, 404);
    assert.equal(notFound.method, 'GET');
    assert.equal(badRequest.path, '/wallets');
    assert.equal(badRequest.status, 400);
    assert.equal(createdEntry.status, 201);
    assert.deepEqual(createdEntry.caller, {
      kind: 'application',
      id: caller.tenant.applicationId,
      role: null,
      keyId: createdEntry.caller.keyId,
    });
    assert.match(createdEntry.caller.keyId, /^[0-9a-f]{12}$/);
    assert.ok(Number.isInteger(createdEntry.durationMs) && createdEntry.durationMs >= 0);

    // A person's refused action is there with who they were; an application reads the log too.
    const viewer = await newPerson(caller.tenant, 'viewer');
    const tried = await asPerson(viewer, '/wallets', {
      method: 'POST',
      body: { walletName: 'Nope', assetCode: 'USDC', ownAccount: true },
    });
    assert.equal(tried.status, 403);
    const byApplication = await as(caller, '/request-log');
    assert.equal(byApplication.status, 200);
    const first = byApplication.body.data[0];
    assert.equal(first.requestId, idOf(tried));
    assert.deepEqual(first.caller, { kind: 'person', id: viewer.email, role: 'viewer', keyId: null });
  });

  it('shows a tenant only its own requests', async () => {
    const other = await newCaller();
    const theirs = await as(other, '/wallets', { method: 'POST', body: {} });
    assert.equal(theirs.status, 400);
    const mine = await asPerson(owner, '/request-log?limit=100');
    assert.ok(!mine.body.data.some((e: { requestId: string }) => e.requestId === idOf(theirs)));
    const theirLog = await as(other, '/request-log');
    assert.deepEqual(
      theirLog.body.data.map((e: { requestId: string }) => e.requestId),
      [idOf(theirs)],
    );
  });
});
