// The parts of a webhook delivery that decide where it may go and when (lib/webhooks/destinations.ts,
// schedule.ts, signing.ts): the addresses refused, the one POST with its look-up guarded (a name that
// resolves inside the network when the delivery connects, DNS rebinding, is refused before any
// connection), the retry schedule, and the signatures as the standardwebhooks library computes them.
//
// The names resolved here are the test's own: node:dns's lookup is replaced for them (the builtin's ESM
// exports synced, so destinations.ts's own `lookup` import sees the replacement), every other name
// resolving as the system does.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import dns, { type LookupAddress } from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import { createServer, isIP, type Server } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  addressRefusal,
  assertReachable,
  post,
  URL_LOOKUP_TIMEOUT_MS,
  type UrlPolicy,
  UrlRefused,
} from '../../lib/webhooks/destinations.ts';
import { MAX_ATTEMPTS, retryDelayMs, SCHEDULE_SECONDS } from '../../lib/webhooks/schedule.ts';
import { deliveryHeaders, newWebhookSecret, standardSignature } from '../../lib/webhooks/signing.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

const PRODUCTION: UrlPolicy = { loopback: false };
/** Production's address checks on a port of the test's own listener. */
const PRODUCTION_ANY_PORT: UrlPolicy = { loopback: false, anyPort: true };
const LOCAL_SANDBOX: UrlPolicy = { loopback: true };

/** What the test's names resolve to, one answer per look-up (the last answer repeats). */
const answers = new Map<string, string[][]>();
/** Names whose resolver never answers (a slow or silent one the URL's owner runs). */
const silent = new Set<string>();
const systemLookup = dns.lookup;

function testLookup(
  hostname: string,
  options: dns.LookupOptions | ((...args: unknown[]) => void),
  callback?: (...args: unknown[]) => void,
): void {
  const done = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
  if (silent.has(hostname)) return;
  const queue = answers.get(hostname);
  if (!queue) {
    (systemLookup as (...args: unknown[]) => void)(hostname, options, callback);
    return;
  }
  const answer = (queue.length > 1 ? queue.shift() : queue[0]) ?? [];
  const found: LookupAddress[] = answer.map((address) => ({ address, family: isIP(address) }));
  const all = typeof options === 'object' && options.all;
  if (all) process.nextTick(done, null, found);
  else process.nextTick(done, null, found[0]?.address, found[0]?.family);
}

/** A TCP listener on loopback that counts the connections made to it (and closes each at once). */
async function countingListener(): Promise<{ port: number; connections: () => number; close(): void }> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  return { port: address.port, connections: () => connections, close: () => server.close() };
}

describe('addresses a delivery may not reach', () => {
  it('refuses private, shared, link-local (metadata), reserved and unique-local addresses, v4 and v6', () => {
    for (const address of [
      '10.0.0.1',
      '10.255.255.255',
      '172.16.0.1',
      '172.31.255.254',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '198.18.0.1',
      '224.0.0.1',
      '240.0.0.1',
      '::',
      'fd00::1',
      'fc00::1',
      'fe80::1',
      'ff02::1',
      'fec0::1',
      '3fff::1',
    ])
      assert.match(addressRefusal(address, LOCAL_SANDBOX) ?? '', /private, link-local or reserved/, address);
  });

  it('refuses the IPv6 transition forms (6to4, NAT64, IPv4-compatible and -translated, Teredo) and the 6to4 relay, whatever they carry', () => {
    for (const address of [
      '::ffff:0:a00:1',
      '::ffff:0:808:808',
      '2002:808:808::1',
      '2002::1',
      '64:ff9b::808:808',
      '64:ff9b:1::808:808',
      '::808:808',
      '::a00:1',
      '2001::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '192.88.99.1',
    ])
      assert.match(addressRefusal(address, PRODUCTION) ?? '', /reserved/, address);
  });

  it('judges an IPv4 address written as IPv6 as the IPv4 address it is', () => {
    for (const address of ['::ffff:10.0.0.1', '::ffff:a00:1', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe'])
      assert.match(addressRefusal(address, PRODUCTION) ?? '', /private/, address);
    for (const address of ['::ffff:127.0.0.1', '::ffff:7f00:1'])
      assert.match(addressRefusal(address, PRODUCTION) ?? '', /loopback/, address);
    assert.equal(addressRefusal('::ffff:8.8.8.8', PRODUCTION), null);
  });

  it('allows public addresses, and loopback only where the policy does (the local stack’s sandbox)', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2001:4860:4860::8888'])
      assert.equal(addressRefusal(address, PRODUCTION), null, address);
    for (const address of ['127.0.0.1', '127.255.255.254', '::1']) {
      assert.match(addressRefusal(address, PRODUCTION) ?? '', /loopback/, address);
      assert.equal(addressRefusal(address, LOCAL_SANDBOX), null, address);
    }
  });
});

describe('the delivery POST (lib/webhooks/destinations.ts post)', () => {
  let receiver: Receiver;

  beforeAll(async () => {
    dns.lookup = testLookup as typeof dns.lookup;
    syncBuiltinESMExports();
    receiver = await startReceiver();
  });

  afterAll(async () => {
    dns.lookup = systemLookup;
    syncBuiltinESMExports();
    await receiver.close();
  });

  it('refuses, at connection time, a name that resolved to a public address at registration and to loopback now (DNS rebinding)', async () => {
    const listener = await countingListener();
    try {
      const host = `rebound-${randomUUID()}.example`;
      const url = `https://${host}:${listener.port}/hooks`;
      // Registration's check sees a public address; the delivery's own look-up sees loopback.
      answers.set(host, [['93.184.216.34'], ['127.0.0.1']]);
      await assertReachable(new URL(url), PRODUCTION_ANY_PORT);
      const refused = await post(url, {}, '{}', PRODUCTION_ANY_PORT, 2000);
      assert.equal(refused.statusCode, null);
      assert.equal(refused.error, 'blocked');
      assert.equal(refused.detail, `${host} resolves to 127.0.0.1`);
      assert.equal(listener.connections(), 0, 'no connection was made');
      // One internal address among public ones is enough to refuse.
      answers.set(host, [['93.184.216.34', '10.1.2.3']]);
      const mixed = await post(url, {}, '{}', PRODUCTION_ANY_PORT, 2000);
      assert.equal(mixed.detail, `${host} resolves to 10.1.2.3`);
      // So is an IPv6 transition address that carries an internal IPv4 one (6to4 of 10.0.0.1, NAT64).
      for (const address of ['2002:a00:1::1', '64:ff9b::a00:1', '64:ff9b:1::a00:1', '::a00:1']) {
        answers.set(host, [[address]]);
        const transition = await post(url, {}, '{}', PRODUCTION_ANY_PORT, 2000);
        assert.equal(transition.error, 'blocked', address);
        assert.equal(transition.detail, `${host} resolves to ${address}`);
      }
      assert.equal(listener.connections(), 0);
      // The same answer where loopback is allowed: the connection is made (the guard is what refused).
      answers.set(host, [['127.0.0.1']]);
      const allowed = await post(url, {}, '{}', { ...LOCAL_SANDBOX, anyPort: true }, 2000);
      assert.equal(allowed.statusCode, null, 'the listener speaks no TLS');
      assert.equal(listener.connections(), 1);
    } finally {
      listener.close();
    }
  });

  it('refuses at registration a name any of whose addresses is internal', async () => {
    const host = `internal-${randomUUID()}.example`;
    answers.set(host, [['93.184.216.34', '169.254.169.254']]);
    await assert.rejects(
      assertReachable(new URL(`https://${host}/hooks`), PRODUCTION),
      (error: Error) =>
        error instanceof UrlRefused &&
        error.message ===
          `${host} resolves to 169.254.169.254, which is a private, link-local or reserved address`,
    );
  });

  it('gives up on a name whose resolver never answers, after URL_LOOKUP_TIMEOUT_MS, refusing it', async () => {
    const host = `silent-${randomUUID()}.example`;
    silent.add(host);
    await assert.rejects(
      assertReachable(new URL(`https://${host}/hooks`), PRODUCTION),
      (error: Error) =>
        error instanceof UrlRefused &&
        error.message === `${host} does not resolve within ${URL_LOOKUP_TIMEOUT_MS / 1000} s`,
    );
  });

  it('refuses loopback and http outside the local sandbox without connecting', async () => {
    const before = receiver.received.length;
    const plain = await post(receiver.url, {}, '{}', PRODUCTION, 2000);
    assert.deepEqual(plain, {
      statusCode: null,
      error: 'blocked',
      detail: 'must be https',
      latencyMs: 0,
      responseExcerpt: null,
    });
    const literal = await post(receiver.url.replace('http:', 'https:'), {}, '{}', PRODUCTION, 2000);
    assert.match(literal.detail ?? '', /points at 127\.0\.0\.1, which is a loopback address/);
    assert.equal(receiver.received.length, before);
  });

  it('sends the body and headers once, keeps a 256-character excerpt of the answer, and never throws', async () => {
    receiver.answer = () => ({ status: 503, body: 'x'.repeat(1000) });
    const before = receiver.received.length;
    const result = await post(receiver.url, { 'x-test': 'yes' }, '{"a":1}', LOCAL_SANDBOX, 2000);
    assert.equal(result.statusCode, 503);
    assert.equal(result.error, null);
    assert.equal(result.responseExcerpt, 'x'.repeat(256));
    assert.equal(receiver.received.length, before + 1);
    const [sent] = receiver.received.slice(-1);
    assert.equal(sent?.body, '{"a":1}');
    assert.equal(sent?.headers['x-test'], 'yes');
    assert.equal(sent?.headers['content-length'], '7');
  });

  it('gives up on a receiver that does not answer in time, and reports a refused connection', async () => {
    // Answered only once post has given up: it cannot have waited for the answer, however busy the machine.
    const gaveUp = Promise.withResolvers<void>();
    receiver.answer = () => ({ status: 204, after: gaveUp.promise });
    const slow = await post(receiver.url, {}, '{}', LOCAL_SANDBOX, 200);
    gaveUp.resolve();
    assert.equal(slow.statusCode, null);
    assert.equal(slow.error, 'timeout');
    assert.equal(slow.detail, 'no answer within 0.2 s');
    assert.ok(slow.latencyMs >= 190, String(slow.latencyMs));
    receiver.answer = () => ({ status: 204 });
    const listener = await countingListener();
    listener.close();
    const closed = await post(`http://127.0.0.1:${listener.port}/hooks`, {}, '{}', LOCAL_SANDBOX, 2000);
    assert.equal(closed.statusCode, null);
    assert.equal(closed.error, 'refused');
  });

  it('records what a non-HTTP service answers as a category, none of its bytes', async () => {
    const banner = 'SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13\r\n';
    const server = createServer((socket) => socket.end(banner));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const result = await post(`http://127.0.0.1:${port}/hooks`, {}, '{}', LOCAL_SANDBOX, 2000);
      assert.equal(result.statusCode, null);
      assert.equal(result.error, 'invalid_response');
      assert.equal(result.responseExcerpt, null);
      assert.ok(!JSON.stringify({ ...result, detail: null }).includes('SSH'), JSON.stringify(result));
    } finally {
      server.close();
    }
  });

  it('refuses ports other than 443 and 8443 outside loopback, before any look-up', async () => {
    for (const url of [
      'https://93.184.216.34:22/hooks',
      'https://93.184.216.34:3476/',
      'https://example.com:80/',
    ]) {
      const result = await post(url, {}, '{}', PRODUCTION, 2000);
      assert.equal(result.error, 'blocked', url);
      assert.match(result.detail ?? '', /must use port 443 or 8443/, url);
    }
  });
});

describe('the retry schedule', () => {
  it('spreads 11 attempts over about 72 hours, each wait longer than the one before', () => {
    assert.equal(MAX_ATTEMPTS, 11);
    const waits = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelayMs(i + 1, 1, () => 0.5));
    assert.equal(waits[0], 5000, 'the first retry 5 s after the first attempt');
    for (let i = 1; i < waits.length; i += 1)
      assert.ok((waits[i] ?? 0) >= (waits[i - 1] ?? 0), `wait ${i + 1}`);
    const totalHours = waits.reduce((sum, ms) => sum + ms, 0) / 3_600_000;
    assert.ok(totalHours > 70 && totalHours < 74, `${totalHours} h`);
    assert.equal(
      SCHEDULE_SECONDS * 1000,
      waits.reduce((sum, ms) => sum + ms, 0),
    );
    assert.ok(Math.max(...waits) > 900_000, 'some waits are longer than SQS can delay a message');
  });

  it('jitters each wait by ±20 %, and scales it (the test stack’s WEBHOOK_RETRY_SCALE)', () => {
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt += 1) {
      const base = retryDelayMs(attempt, 1, () => 0.5);
      assert.equal(
        retryDelayMs(attempt, 1, () => 0),
        Math.round(base * 0.8),
      );
      assert.equal(
        retryDelayMs(attempt, 1, () => 1),
        Math.round(base * 1.2),
      );
      const seen = Array.from({ length: 200 }, () => retryDelayMs(attempt, 1));
      assert.ok(
        seen.every((ms) => ms >= base * 0.8 - 1 && ms <= base * 1.2 + 1),
        `attempt ${attempt}`,
      );
      assert.ok(new Set(seen).size > 1, 'the waits are not all alike');
      assert.equal(
        retryDelayMs(attempt, 0.002, () => 0.5),
        Math.round(base * 0.002),
      );
    }
  });
});

describe('signatures', () => {
  it('signs the Standard Webhooks way, as the standardwebhooks library signs and verifies', () => {
    const secret = newWebhookSecret();
    const eventId = randomUUID();
    const body = JSON.stringify({ id: eventId, type: 'payment.completed', data: { amount: '1.50' } });
    const now = new Date();
    const seconds = Math.floor(now.getTime() / 1000);
    assert.equal(
      standardSignature(secret, eventId, seconds, body),
      new Webhook(secret).sign(eventId, now, body),
    );
    const headers = deliveryHeaders({ webhookId: randomUUID(), eventId, secret, body, now });
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
    assert.throws(() => new Webhook(newWebhookSecret()).verify(body, headers), /signature/i);
    assert.throws(() => new Webhook(secret).verify(`${body} `, headers), /signature/i);
  });
});
