// Webhook registration rules (issue #11 §1), each against the running stack: what POST /webhooks answers
// (the secret once, never again), which event lists and URLs it refuses and how (400 for shapes, 422
// naming `events.<i>` or `url`), the URL policy per environment (a sandbox application on the local
// stack may use http to loopback; a production one only https to public addresses), the limit of 20
// active registrations, the list's pages, and another tenant's registration answered as a missing one.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, it } from 'vitest';
import {
  type ApiResponse,
  as,
  assertAnsweredAsMissing,
  assertFieldError,
  type Caller,
  newCaller,
  pagesAt,
} from '../support/api.ts';

const REGISTRATION_MEMBERS = [
  'createdAt',
  'deactivatedAt',
  'description',
  'events',
  'id',
  'status',
  'updatedAt',
  'url',
];
const LOOPBACK_URL = 'http://127.0.0.1:9/hooks';
/** A URL of its own: a URL has one active registration per tenant. */
const hookUrl = () => `${LOOPBACK_URL}/${randomUUID()}`;

const register = (caller: Caller, body: unknown) => as(caller, '/webhooks', { method: 'POST', body });

async function registered(caller: Caller, body: unknown): Promise<ApiResponse> {
  const response = await register(caller, body);
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response;
}

const remove = (caller: Caller, webhookId: string) =>
  as(caller, `/webhooks/${webhookId}`, { method: 'DELETE' });

/** The pages GET /webhooks answers with `limit`, walked with their cursors. */
const pagesOf = (caller: Caller, limit: number) => pagesAt(caller, '/webhooks', `limit=${limit}`);

describe('webhook registration', () => {
  let alice: Caller;
  let bob: Caller;
  let production: Caller;

  beforeAll(async () => {
    [alice, bob, production] = await Promise.all([
      newCaller(),
      newCaller(),
      newCaller({ environment: 'production' }),
    ]);
  });

  it('answers 201 with the registration and its secret, shown once: never by GET, the list or DELETE', async () => {
    const before = Date.now();
    const url = hookUrl();
    const created = await registered(alice, {
      url,
      events: ['payment.completed', 'payment.failed', 'payment.completed'],
      description: 'Reconciliation',
    });
    const { secret, ...registration } = created.body;
    assert.deepEqual(Object.keys(registration).sort(), REGISTRATION_MEMBERS);
    assert.match(registration.id, /^[0-9a-f-]{36}$/);
    assert.equal(registration.url, url);
    assert.deepEqual(registration.events, ['payment.completed', 'payment.failed'], 'duplicates dropped');
    assert.equal(registration.description, 'Reconciliation');
    assert.equal(registration.status, 'active');
    assert.equal(registration.deactivatedAt, null);
    assert.equal(registration.createdAt, registration.updatedAt);
    assert.ok(Date.parse(registration.createdAt) >= before - 1000);
    // Standard Webhooks form: whsec_ and the base64 of 24 random bytes.
    assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.equal(Buffer.from(secret.slice('whsec_'.length), 'base64').length, 24);
    const other = await registered(alice, { url: hookUrl(), events: ['*'] });
    assert.notEqual(other.body.secret, secret, 'each registration has a secret of its own');
    assert.equal(other.body.description, null);

    const read = await as(alice, `/webhooks/${registration.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, registration, 'GET: the registration without its secret');
    const listed = (await pagesOf(alice, 100)).flat();
    assert.deepEqual(
      listed.find((r) => r.id === registration.id),
      registration,
    );
    assert.ok(
      listed.every((r) => !('secret' in r)),
      'no secret in the list',
    );
    const deleted = await remove(alice, registration.id);
    assert.equal(deleted.status, 200);
    assert.deepEqual(Object.keys(deleted.body).sort(), REGISTRATION_MEMBERS);
    assert.equal(deleted.body.status, 'deactivated');
    assert.ok(!JSON.stringify([read.body, listed, deleted.body]).includes(secret.slice(6)));
  });

  it('refuses unknown event types naming each (422), "*" with others (422), an empty list and unknown members (400)', async () => {
    const unknown = await register(alice, {
      url: LOOPBACK_URL,
      events: ['payment.completed', 'payment.refunded', 'payment.failed', 'wallet.deleted'],
    });
    assertFieldError(unknown, 422, 'events.1', /payment\.refunded is not an event type/);
    assertFieldError(unknown, 422, 'events.3', /wallet\.deleted is not an event type/);
    assert.equal(unknown.body.errors.length, 2, JSON.stringify(unknown.body.errors));
    assertFieldError(
      await register(alice, { url: LOOPBACK_URL, events: ['*', 'payment.completed'] }),
      422,
      'events',
    );
    assertFieldError(
      await register(alice, { url: LOOPBACK_URL, events: ['payment.completed', '*'] }),
      422,
      'events',
    );
    assertFieldError(await register(alice, { url: LOOPBACK_URL, events: [] }), 400, 'events');
    assertFieldError(
      await register(alice, { url: LOOPBACK_URL, events: ['*'], secret: 'whsec_mine' }),
      400,
      'secret',
    );
    assertFieldError(
      await register(alice, { url: LOOPBACK_URL, events: ['*'], colour: 'red' }),
      400,
      'colour',
    );
    assertFieldError(await register(alice, { events: ['*'] }), 400, 'url');
    assertFieldError(await register(alice, { url: LOOPBACK_URL }), 400, 'events');
  });

  it('refuses URLs that are not absolute, not https (but for loopback in sandbox), carry credentials, point inside the network or do not resolve', async () => {
    const fresh = await newCaller();
    const refusals: [string, RegExp][] = [
      ['hooks.example.com/payments', /absolute URL/],
      ['/hooks', /absolute URL/],
      ['ftp://127.0.0.1/hooks', /must be https/],
      ['http://10.0.0.1/hooks', /must be https \(or http to loopback\)/],
      ['https://user:pass@127.0.0.1/hooks', /credentials/],
      ['http://user@127.0.0.1:9/hooks', /credentials/],
      ['https://10.0.0.1/hooks', /10\.0\.0\.1.*private/],
      ['https://192.168.1.20/hooks', /private/],
      ['https://169.254.169.254/latest/meta-data', /169\.254\.169\.254.*link-local/],
      ['https://[fd00::1]/hooks', /fd00::1.*private/],
      ['https://[fe80::1]/hooks', /private, link-local/],
      ['https://[::ffff:10.0.0.1]/hooks', /::ffff:a00:1.*private/],
      ['https://no-such-host.invalid/hooks', /no-such-host\.invalid does not resolve/],
    ];
    for (const [url, message] of refusals)
      assertFieldError(await register(fresh, { url, events: ['*'] }), 422, 'url', message);
    assert.deepEqual((await pagesOf(fresh, 100)).flat(), [], 'a refused URL registers nothing');
    // Sandbox on the local stack: http (or https) to loopback, by address or by name.
    for (const url of ['http://127.0.0.1:9/hooks', 'http://localhost:9/hooks', 'https://[::1]:9/hooks'])
      await registered(fresh, { url, events: ['*'] });
  });

  it('holds a production application to https and public addresses: loopback and localhost are refused', async () => {
    const refusals: [string, RegExp][] = [
      ['http://127.0.0.1:9/hooks', /must be https$/],
      ['http://localhost:9/hooks', /must be https$/],
      ['https://127.0.0.1/hooks', /127\.0\.0\.1.*loopback/],
      ['https://127.1/hooks', /127\.0\.0\.1.*loopback/],
      ['https://[::1]/hooks', /::1.*loopback/],
      ['https://[::ffff:127.0.0.1]/hooks', /loopback/],
      ['https://localhost/hooks', /localhost/],
      ['https://10.0.0.1/hooks', /private/],
      ['https://169.254.169.254/latest/meta-data', /link-local/],
      ['https://[fd00::1]/hooks', /private/],
      ['https://no-such-host.invalid/hooks', /does not resolve/],
    ];
    for (const [url, message] of refusals)
      assertFieldError(await register(production, { url, events: ['*'] }), 422, 'url', message);
    // A public address is a production application's to use.
    const created = await registered(production, {
      url: 'https://8.8.8.8/hooks',
      events: ['payment.completed'],
    });
    assert.equal(created.body.url, 'https://8.8.8.8/hooks');
    assert.equal((await remove(production, created.body.id)).status, 200);
  });

  it('refuses to a production application the IPv6 transition forms and the 6to4 relay, whatever address they carry', async () => {
    const reserved = /which is a private, link-local or reserved address/;
    const refusals: [string, string][] = [
      ['https://[2002:a00:1::1]/hooks', '2002:a00:1::1'], // 6to4 of 10.0.0.1
      ['https://[2002:808:808::1]/hooks', '2002:808:808::1'], // 6to4 of a public address: still a relay
      ['https://[64:ff9b::a9fe:a9fe]/hooks', '64:ff9b::a9fe:a9fe'], // NAT64 of the metadata address
      ['https://[64:ff9b:1::a00:1]/hooks', '64:ff9b:1::a00:1'], // local-use NAT64
      ['https://[::10.0.0.1]/hooks', '::a00:1'], // IPv4-compatible
      ['https://[::8.8.8.8]/hooks', '::808:808'],
      ['https://[::ffff:0:a00:1]/hooks', '::ffff:0:a00:1'], // IPv4-translated 10.0.0.1
      ['https://[fec0::1]/hooks', 'fec0::1'], // site-local (deprecated, still routed by some networks)
      ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hooks', '2001:0:4136:e378:8000:63bf:3fff:fdd2'], // Teredo
      ['https://192.88.99.1/hooks', '192.88.99.1'], // the 6to4 relay anycast
    ];
    for (const [url, address] of refusals) {
      const refused = await register(production, { url, events: ['*'] });
      assertFieldError(refused, 422, 'url', reserved);
      assert.ok(JSON.stringify(refused.body).includes(`points at ${address}`), JSON.stringify(refused.body));
    }
    assert.deepEqual(
      (await pagesOf(production, 100)).flat().filter((r) => r.status === 'active'),
      [],
      'nothing registered',
    );
  });

  it('holds a production application to ports 443 and 8443', async () => {
    for (const url of ['https://8.8.8.8:22/hooks', 'https://8.8.8.8:8080/hooks', 'https://8.8.8.8:3476/'])
      assertFieldError(
        await register(production, { url, events: ['*'] }),
        422,
        'url',
        /must use port 443 or 8443/,
      );
    for (const url of ['https://8.8.8.8:443/alt', 'https://8.8.8.8:8443/hooks']) {
      const created = await registered(production, { url, events: ['payment.failed'] });
      assert.equal((await remove(production, created.body.id)).status, 200);
    }
  });

  it('keeps one active registration per URL: a second answers 409 naming `url` and the first, until the first is deleted', async () => {
    const erin = await newCaller();
    const url = hookUrl();
    const first = (await registered(erin, { url, events: ['payment.completed'] })).body;
    const again = await register(erin, { url, events: ['payment.failed'] });
    assertFieldError(again, 409, 'url', new RegExp(`webhook ${first.id} is registered for`));
    // The same URL written differently (the scheme's case) is the same URL.
    assertFieldError(await register(erin, { url: url.replace('http:', 'HTTP:'), events: ['*'] }), 409, 'url');
    assert.equal((await pagesOf(erin, 100)).flat().length, 1, 'the refused one was not written');
    // Another tenant may use it; so may this one, once the first is deleted.
    await registered(alice, { url, events: ['*'] });
    assert.equal((await remove(erin, first.id)).status, 200);
    const second = (await registered(erin, { url, events: ['payment.failed'] })).body;
    assert.notEqual(second.id, first.id);
  });

  it('holds at most 20 active registrations: the 21st is refused (422) until one is deleted', async () => {
    const carol = await newCaller();
    const ids: string[] = [];
    for (let i = 0; i < 20; i += 1)
      ids.push((await registered(carol, { url: hookUrl(), events: ['payment.completed'] })).body.id);
    const refused = await register(carol, { url: LOOPBACK_URL, events: ['payment.completed'] });
    assertFieldError(refused, 422, 'url', /at most 20 active webhooks/);
    assert.equal((await pagesOf(carol, 100)).flat().length, 20, 'the refused one was not written');
    // A second DELETE changes no count: still one slot, not two.
    const [first] = ids as [string];
    assert.equal((await remove(carol, first)).status, 200);
    assert.equal((await remove(carol, first)).status, 200);
    await registered(carol, { url: hookUrl(), events: ['payment.completed'] });
    assertFieldError(await register(carol, { url: LOOPBACK_URL, events: ['*'] }), 422, 'url', /at most 20/);
    // Deactivated registrations stay listed (history): 21 now, 20 of them active.
    const listed = (await pagesOf(carol, 100)).flat();
    assert.equal(listed.length, 21);
    assert.equal(listed.filter((r) => r.status === 'active').length, 20);
  });

  it('lists registrations in cursor pages, active and deactivated, each once and without secrets', async () => {
    const dave = await newCaller();
    const created = [];
    for (let i = 0; i < 5; i += 1)
      created.push((await registered(dave, { url: hookUrl(), events: ['*'], description: `#${i}` })).body);
    await remove(dave, created[2].id);
    const pages = await pagesOf(dave, 2);
    assert.deepEqual(
      pages.map((page) => page.length),
      [2, 2, 1],
    );
    const listed = pages.flat();
    assert.deepEqual(listed.map((r) => r.id).sort(), created.map((r) => r.id).sort());
    for (const registration of listed) {
      assert.deepEqual(Object.keys(registration).sort(), REGISTRATION_MEMBERS);
      assert.equal(registration.status, registration.id === created[2].id ? 'deactivated' : 'active');
    }
  });

  it('answers another tenant’s registration as a missing one (404) on every route, and leaves it as it was', async () => {
    const mine = (await registered(alice, { url: hookUrl(), events: ['*'] })).body;
    const missing = randomUUID();
    const deliveryId = randomUUID();
    const routes = (id: string): [string, string][] => [
      ['GET', `/webhooks/${id}`],
      ['DELETE', `/webhooks/${id}`],
      ['GET', `/webhooks/${id}/deliveries`],
      ['POST', `/webhooks/${id}/deliveries/${deliveryId}/redeliver`],
    ];
    const missingRoutes = routes(missing);
    for (const [i, [method, path]] of routes(mine.id).entries()) {
      const theirs = await as(bob, path, { method });
      const [missingMethod, missingPath] = missingRoutes[i] as [string, string];
      const none = await as(bob, missingPath, { method: missingMethod });
      assertAnsweredAsMissing(theirs, mine.id, none, missing, `${method} ${path}`);
    }
    // Production and sandbox are separate tenants too.
    assert.equal((await as(production, `/webhooks/${mine.id}`)).status, 404);
    const { secret: _, ...registration } = mine;
    assert.deepEqual(
      (await as(alice, `/webhooks/${mine.id}`)).body,
      registration,
      'the other tenant’s DELETE changed nothing',
    );
  });

  it('deactivates on DELETE for good: a second DELETE answers the same 200 body', async () => {
    const created = (await registered(alice, { url: hookUrl(), events: ['wallet.verified'] })).body;
    const deleted = await remove(alice, created.id);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.status, 'deactivated');
    assert.ok(deleted.body.deactivatedAt);
    assert.equal(deleted.body.updatedAt, deleted.body.deactivatedAt);
    const again = await remove(alice, created.id);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, deleted.body);
    assert.deepEqual((await as(alice, `/webhooks/${created.id}`)).body, deleted.body);
  });
});
