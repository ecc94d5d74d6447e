// A tenant's API keys and clients as its people manage them (the portal's Developers page), and its
// request log, against the real stack: a secret answered once and never listed or logged, a revoked
// key or client refused at once, roles held by the server, tenants kept apart; the log keeps what
// changed something and what failed, not a read that succeeded, and only the tenant's own.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, it } from 'vitest';
import { backfillCredentialKeys } from '../../lib/admin/credential-backfill.ts';
import { hashCredential } from '../../lib/auth/credentials.ts';
import { db, tableName } from '../../lib/db/client.ts';
import { keys } from '../../lib/db/keys.ts';
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

  const make = (person: Person, body: Record<string, unknown>) =>
    asPerson(person, '/credentials', { method: 'POST', body });
  const revoke = (person: Person, id: string) => asPerson(person, `/credentials/${id}`, { method: 'DELETE' });

  it('answers a new key once, lists it by prefix and last four only, and refuses it at once when revoked', async () => {
    const made = await make(owner, { kind: 'apiKey', name: 'CI server' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const { secret: apiKey, id } = made.body;
    assert.match(apiKey, /^pgw_sandbox_[\w-]{43}$/);
    assert.match(id, /^[0-9a-f]{12}$/);
    assert.equal(made.body.prefix, 'pgw_sandbox_');
    assert.equal(made.body.last4, apiKey.slice(-4));
    assert.equal(made.body.createdBy, owner.email);
    assert.equal(made.body.status, 'active');

    // The new key works with the tenant's client.
    const { clientId, clientSecret } = caller.tenant;
    assert.equal((await tokenWith(apiKey, clientId, clientSecret)).status, 200);

    const listed = await asPerson(viewer, '/credentials');
    assert.equal(listed.status, 200);
    const { secret: _once, ...shown } = made.body;
    // Newest first: the key and client the admin CLI made with the tenant come after it.
    assert.deepEqual(listed.body.data[0], shown);
    const platformMade = listed.body.data.slice(1).map((c: { kind: string }) => c.kind);
    assert.deepEqual(platformMade.sort(), ['apiKey', 'client']);
    assert.ok(listed.body.data.slice(1).every((c: { createdBy: null }) => c.createdBy === null));
    assert.ok(!JSON.stringify(listed.body).includes(apiKey), 'the secret is never listed');

    const revoked = await revoke(owner, id);
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.equal(revoked.body.status, 'revoked');
    assert.ok(revoked.body.revokedAt);
    assert.equal((await tokenWith(apiKey, clientId, clientSecret)).status, 401);
    // A token route with the revoked key and a valid token: refused too.
    assert.equal((await call('/wallets', { apiKey, token: caller.token })).status, 401);
    // Revoking again answers it as it is.
    assert.equal((await revoke(owner, id)).body.revokedAt, revoked.body.revokedAt);
  });

  it('answers a new client’s secret once, and a revoked client gets no token and its tokens are refused', async () => {
    const made = await make(owner, { kind: 'client' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const { id: clientId, secret: clientSecret } = made.body;
    assert.match(clientSecret, /^pgwcs_[\w-]{43}$/);
    assert.equal(made.body.prefix, 'pgwcs_');
    assert.equal(made.body.last4, clientSecret.slice(-4));
    assert.equal(made.body.name, null);
    const issued = await tokenWith(caller.tenant.apiKey, clientId, clientSecret);
    assert.equal(issued.status, 200);
    assert.equal(issued.body.associationId, caller.tenant.associationId);
    const token = issued.body.accessToken;
    assert.equal((await call('/wallets', { apiKey: caller.tenant.apiKey, token })).status, 200);

    const listed = await asPerson(owner, '/credentials');
    assert.equal(listed.body.data[0].id, clientId);
    assert.equal('secret' in listed.body.data[0], false);
    assert.ok(!JSON.stringify(listed.body).includes(clientSecret));

    const revoked = await revoke(owner, clientId.toUpperCase());
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.status, 'revoked');
    assert.equal((await tokenWith(caller.tenant.apiKey, clientId, clientSecret)).status, 401);
    assert.equal((await call('/wallets', { apiKey: caller.tenant.apiKey, token })).status, 401);
  });

  it('lets everyone on the team read, and only owners make or revoke (the server refuses, 403)', async () => {
    assert.equal((await asPerson(viewer, '/credentials')).status, 200);
    for (const person of [viewer, developer]) {
      const refused = await make(person, { kind: 'apiKey' });
      assert.equal(refused.status, 403, JSON.stringify(refused.body));
      assert.match(refused.body.detail, /needs owner/);
      assert.equal((await make(person, { kind: 'client' })).status, 403);
    }
    const listed = await asPerson(owner, '/credentials');
    const first = listed.body.data[0];
    assert.equal((await revoke(viewer, first.id)).status, 403);
    assert.deepEqual((await asPerson(owner, '/credentials')).body.data[0], first);
    // An application cannot manage credentials, whatever it holds.
    assert.equal(
      (await as(caller, '/credentials', { method: 'POST', body: { kind: 'apiKey' } })).status,
      401,
    );
  });

  it('tells an application that the route takes a person’s sign-in token, however it calls', async () => {
    const refusals = [
      await call('/credentials', { apiKey: caller.tenant.apiKey }),
      await as(caller, '/credentials'),
      await as(caller, '/credentials', { method: 'POST', body: { kind: 'apiKey' } }),
    ];
    for (const refused of refusals) {
      assert.equal(refused.status, 401, JSON.stringify(refused.body));
      assert.match(refused.body.detail, /takes a person’s sign-in token .*POST \/portal\/token/);
      assert.doesNotMatch(refused.body.detail, /x-service-auth header is required/);
    }
    // A token route called without a key still asks for the key.
    const keyless = await call('/wallets', {});
    assert.equal(keyless.status, 401);
    assert.match(keyless.body.detail, /x-service-auth header is required/);
  });

  it('names the field at fault', async () => {
    const wrong = await make(owner, { kind: 'password', name: '' });
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body.errors.map((e: { field: string }) => e.field).sort(), ['kind', 'name']);
    assert.equal((await revoke(owner, 'nothex')).body.errors[0].field, 'credentialId');
  });

  it('keeps tenants apart: another tenant’s key or client is a 404, and never listed', async () => {
    const other = await newCaller();
    const otherOwner = await newPerson(other.tenant, 'owner');
    const theirKey = (await make(otherOwner, { kind: 'apiKey' })).body;
    const theirClient = (await make(otherOwner, { kind: 'client' })).body;
    const key = await revoke(owner, theirKey.id);
    assert.equal(key.status, 404);
    assert.equal(key.body.errors[0].field, 'credentialId');
    assert.equal((await revoke(owner, theirClient.id)).status, 404);
    assert.equal((await tokenWith(theirKey.secret, theirClient.id, theirClient.secret)).status, 200);
    const mine = JSON.stringify((await asPerson(owner, '/credentials?limit=100')).body);
    assert.ok(!mine.includes(theirKey.id) && !mine.includes(theirClient.id));
  });

  it('lists a tenant’s credentials made before its people could, once the admin CLI backfilled them', async () => {
    const old = await newCaller();
    const oldOwner = await newPerson(old.tenant, 'owner');
    // As an application, key and client were written before the Developers routes: no tenant keys, and a
    // key without its tenant.
    const forget = (key: { pk: string; sk: string }, names: string[]) =>
      db.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: `REMOVE ${names.map((_, i) => `#n${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#n${i}`, name])),
        }),
      );
    const indexes = ['gsi1pk', 'gsi1sk', 'list1pk', 'list1sk'];
    await forget(keys.application(old.tenant.applicationId), ['gsi1pk', 'gsi1sk']);
    await forget(keys.apiKey(hashCredential(old.tenant.apiKey)), [
      'associationId',
      'environment',
      ...indexes,
    ]);
    await forget(keys.client(old.tenant.clientId), ['environment', ...indexes]);
    assert.deepEqual((await asPerson(oldOwner, '/credentials')).body.data, []);
    assert.equal((await make(oldOwner, { kind: 'apiKey' })).status, 409);

    const counts = await backfillCredentialKeys();
    assert.ok(counts.application >= 1 && counts.apiKey >= 1 && counts.client >= 1, JSON.stringify(counts));
    const listed = (await asPerson(oldOwner, '/credentials')).body.data;
    assert.deepEqual(listed.map((c: { kind: string }) => c.kind).sort(), ['apiKey', 'client']);
    assert.equal((await make(oldOwner, { kind: 'apiKey' })).status, 201);
    // Still the tenant's own key, and it still works.
    assert.equal(
      (await tokenWith(old.tenant.apiKey, old.tenant.clientId, old.tenant.clientSecret)).status,
      200,
    );
  });

  it('never logs a secret it makes', async () => {
    const logs = captureLogs();
    try {
      const { apiFunction } = await import('../../lib/api.ts');
      const { developersOperations } = await import('../../lib/operations/developers.ts');
      const { toApiGatewayEvent, lambdaContext } = await import('../../local/lambda-event.ts');
      const handler = apiFunction('portal', developersOperations as never);
      const route = routes.find((r) => r.operation === 'createCredential');
      assert.ok(route);
      const event = toApiGatewayEvent(
        {
          method: 'POST',
          url: '/v1/credentials',
          headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
          body: Buffer.from('{"kind":"apiKey","name":"logged?"}'),
        },
        routeKeyOf(route),
        undefined,
      );
      const result = await handler(event, lambdaContext('portal'));
      assert.equal(result.statusCode, 201, result.body);
      const { secret } = JSON.parse(result.body ?? '{}');
      assert.ok(!JSON.stringify(logs.lines).includes(secret));
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
