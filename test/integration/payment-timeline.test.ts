// A payment's timeline and its webhook deliveries, and a webhook's test event, against the real stack
// (issue #38): GET /transactions/{id} answers every move its lifecycle made, with the ledger's own
// ledger and fee for a landed transaction (read back from the ledger); a record written before the
// history was kept shows what it holds; GET /webhooks/deliveries?resourceId= lists the deliveries about
// a record with each attempt and the body sent, and nothing to another tenant; POST
// /webhooks/{webhookId}/test delivers a signed webhook.test as any event, and a viewer is refused it.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { holds } from '../../lib/db/conditions.ts';
import { updateIf } from '../../lib/db/items.ts';
import { transactionKeys } from '../../lib/db/keys.ts';
import { as, type Caller, call, newCaller } from '../support/api.ts';
import { accepted, horizon, ownWallet, recordWhen, settled, unopenedWallet } from '../support/payments.ts';
import { newPerson } from '../support/people.ts';
import { heldOfframp } from '../support/ramps.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';
import { assertSignedBoth } from '../support/webhook-signatures.ts';

// biome-ignore lint/suspicious/noExplicitAny: answers are asserted on member by member.
type Json = any;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads `path` until `done` holds of its body (attempts are recorded just after the receiver answers). */
async function readUntil(caller: Caller, path: string, done: (body: Json) => boolean): Promise<Json> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { status, body } = await as(caller, path);
    assert.equal(status, 200, JSON.stringify(body));
    if (done(body)) return body;
    assert.ok(Date.now() < deadline, `${path}: not there in time: ${JSON.stringify(body)}`);
    await pause(100);
  }
}

/** The timeline's events, in order. */
const eventsOf = (record: Json): string[] => record.timeline.map((step: Json) => step.event);

/** Every step at or after the one before it. */
function assertTimeOrdered(record: Json) {
  const times = record.timeline.map((step: Json) => Date.parse(step.at));
  assert.deepEqual(
    times,
    [...times].sort((a, b) => a - b),
  );
  assert.equal(record.timeline[0].at, record.createdAt);
}

describe('a payment’s timeline', () => {
  let caller: Caller;
  let from: Awaited<ReturnType<typeof ownWallet>>;
  let to: Awaited<ReturnType<typeof ownWallet>>;

  beforeAll(async () => {
    caller = await newCaller();
    [from, to] = await Promise.all([ownWallet(caller, 'USDC', 500), ownWallet(caller, 'USDC')]);
  });

  const p2p = (walletId: string, amount: number) =>
    accepted(caller, 'p2p/own', {
      transactionId: randomUUID(),
      walletId,
      destinationWalletId: to.id,
      sendingAssetCode: 'USDC',
      amount,
    });

  it('a P2P payment: accepted, then landed with the ledger’s own hash, ledger and fee', async () => {
    const id = await p2p(from.id, 3);
    await settled(caller, id);
    const record = (await as(caller, `/transactions/${id}`)).body;
    assert.deepEqual(eventsOf(record), ['accepted', 'ledger_landed']);
    assertTimeOrdered(record);
    const [acceptedStep, landed] = record.timeline;
    assert.deepEqual(acceptedStep, {
      at: record.createdAt,
      event: 'accepted',
      state: 'initiated',
      status: 'initiated',
      errorCode: null,
      ledgerTransaction: null,
    });
    assert.equal(landed.state, 'completed');
    assert.equal(landed.status, 'completed');
    assert.equal(landed.at, record.completedAt);
    const onLedger = await horizon().transactions().transaction(record.stellarTxHash).call();
    assert.deepEqual(landed.ledgerTransaction, {
      hash: record.stellarTxHash,
      ledger: onLedger.ledger_attr,
      fee: Number(onLedger.fee_charged) / 1e7,
    });
    assert.ok(landed.ledgerTransaction.fee > 0);
    // A list shows records, not their timelines.
    const listed = (await as(caller, `/transactions?walletId=${from.id}&limit=5`)).body.data;
    assert.ok(listed.length > 0);
    assert.ok(listed.every((r: Json) => r.timeline === undefined));
  });

  it('a P2P payment the ledger refuses: accepted, then failed with its errorCode', async () => {
    const poor = await unopenedWallet(caller);
    const id = await p2p(poor.id, 1000);
    await poor.open();
    const record = await settled(caller, id);
    assert.equal(record.status, 'failed');
    assert.deepEqual(eventsOf(record), ['accepted', 'ledger_refused']);
    const failed = record.timeline[1];
    assert.deepEqual([failed.state, failed.status], ['failed', 'failed']);
    assert.ok(record.errorCode);
    assert.equal(failed.errorCode, record.errorCode);
    assertTimeOrdered(record);
  });

  it('an off-ramp: its ledger leg, each of its provider’s moves, and its refund', async () => {
    const wallet = await ownWallet(caller, 'USDC', 100);
    const { id, providerReference } = await heldOfframp(caller, wallet.id, 'HOLD-TIMELINE');
    const failed = await as(caller, `/sandbox/transactions/${id}/fail`, { method: 'POST' });
    assert.equal(failed.status, 202, JSON.stringify(failed.body));
    await recordWhen(caller, id, (r) => r.status === 'refund_completed');
    const record = (await as(caller, `/transactions/${id}`)).body;
    assertTimeOrdered(record);
    const events = eventsOf(record);
    assert.deepEqual(events.slice(0, 2), ['accepted', 'ledger_landed']);
    assert.deepEqual(events.slice(-2), ['provider_failed', 'owed_paid']);
    // Between them, the provider holding the payout (pending or processing, as its reports came).
    const held = record.timeline.slice(2, -2);
    assert.ok(held.length >= 1, JSON.stringify(record.timeline));
    for (const step of held) {
      assert.match(step.event, /^provider_(pending|processing)$/);
      assert.deepEqual([step.state, step.status], ['paying_out', 'processing']);
    }
    const leg = record.timeline[1];
    assert.deepEqual([leg.state, leg.status], ['leg_landed', 'processing']);
    assert.equal(leg.ledgerTransaction.hash, record.stellarTxHash);
    assert.ok(leg.ledgerTransaction.ledger > 0);
    const [refundDue, refunded] = record.timeline.slice(-2);
    assert.deepEqual(
      [refundDue.state, refundDue.status, refundDue.errorCode],
      ['refund_due', 'failed', 'PROVIDER_FAILED'],
    );
    assert.equal(refundDue.ledgerTransaction, null);
    assert.deepEqual([refunded.state, refunded.status], ['refund_completed', 'refund_completed']);
    assert.equal(refunded.ledgerTransaction.hash, record.refundTxHash);
    assert.notEqual(record.refundTxHash, record.stellarTxHash);
    // The ramp's own figures are the record's: its quote, fee, rate and the provider's reference.
    assert.equal(record.externalReference, providerReference);
    assert.ok(record.quoteId);
    assert.ok(record.fee > 0);
    assert.ok(record.exchangeRate > 0);
  });

  it('a record written before the history was kept: accepted, and where it stands now', async () => {
    const id = await p2p(from.id, 1);
    await settled(caller, id);
    const tenant = { environment: 'sandbox' as const, associationId: caller.tenant.associationId };
    const stripped = await updateIf(transactionKeys.record(tenant, id), { remove: ['history'] }, holds({}));
    assert.equal(stripped.outcome, 'written');
    const record = (await as(caller, `/transactions/${id}`)).body;
    assert.deepEqual(record.timeline, [
      {
        at: record.createdAt,
        event: 'accepted',
        state: 'initiated',
        status: 'initiated',
        errorCode: null,
        ledgerTransaction: null,
      },
      {
        at: record.completedAt,
        event: null,
        state: 'completed',
        status: 'completed',
        errorCode: null,
        ledgerTransaction: { hash: record.stellarTxHash, ledger: null, fee: null },
      },
    ]);
  });
});

describe('a payment’s webhook deliveries, and a test event', () => {
  let caller: Caller;
  let outsider: Caller;
  let receiver: Receiver;
  let webhook: { id: string; secret: string };

  beforeAll(async () => {
    [caller, outsider] = await Promise.all([newCaller(), newCaller()]);
    receiver = await startReceiver();
    const created = await as(caller, '/webhooks', {
      method: 'POST',
      body: { url: receiver.url, events: ['payment.initiated', 'payment.completed'] },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    webhook = { id: created.body.id, secret: created.body.secret };
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it('lists each delivery about a record with its attempts and the body sent; another tenant sees none', async () => {
    const [from, to] = await Promise.all([ownWallet(caller, 'USDC', 50), ownWallet(caller, 'USDC')]);
    // Its first attempt of each event fails, every later one succeeds.
    const failedOnce = new Set<string>();
    receiver.answer = (_, delivery) => {
      const type = JSON.parse(delivery.body).type;
      if (failedOnce.has(type)) return { status: 204 };
      failedOnce.add(type);
      return { status: 500, body: 'not yet' };
    };
    const id = await accepted(caller, 'p2p/own', {
      transactionId: randomUUID(),
      walletId: from.id,
      destinationWalletId: to.id,
      sendingAssetCode: 'USDC',
      amount: 5,
    });
    await settled(caller, id);
    const path = `/webhooks/deliveries?resourceId=${id.toUpperCase()}`;
    const page = await readUntil(
      caller,
      path,
      (body) => body.data.length === 2 && body.data.every((d: Json) => d.status === 'delivered'),
    );
    assert.deepEqual(
      page.data.map((d: Json) => d.eventType),
      ['payment.completed', 'payment.initiated'],
      'newest first',
    );
    const received = receiver.received.filter((r) => JSON.parse(r.body).data.transactionRecordId === id);
    for (const delivery of page.data) {
      assert.equal(delivery.webhookId, webhook.id);
      assert.deepEqual(
        delivery.attempts.map((a: Json) => [a.attempt, a.statusCode, a.responseExcerpt]),
        [
          [1, 500, 'not yet'],
          [2, 204, null],
        ],
      );
      for (const attempt of delivery.attempts) {
        assert.ok(Number.isInteger(attempt.latencyMs) && attempt.latencyMs >= 0);
        assert.ok(Date.parse(attempt.at) >= Date.parse(delivery.createdAt));
      }
      // The body sent, byte for byte, at both attempts.
      const sent = received.filter((r) => JSON.parse(r.body).id === delivery.eventId);
      assert.equal(sent.length, 2);
      for (const r of sent) assert.equal(r.body, delivery.body);
    }
    // Another tenant's person or application: the same id finds nothing.
    const theirs = await as(outsider, path);
    assert.equal(theirs.status, 200);
    assert.deepEqual(theirs.body.data, []);
    const missing = await as(caller, `/webhooks/deliveries?resourceId=${randomUUID()}`);
    assert.deepEqual(missing.body.data, []);
    const bad = await as(caller, '/webhooks/deliveries?resourceId=nope');
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    assert.equal(bad.body.errors[0].field, 'resourceId');
  });

  it('sends a signed webhook.test through the delivery path, to a developer and not to a viewer', async () => {
    receiver.answer = () => ({ status: 204 });
    const [developer, viewer] = await Promise.all([
      newPerson(caller.tenant, 'developer'),
      newPerson(caller.tenant, 'viewer'),
    ]);
    const path = `/webhooks/${webhook.id}/test`;
    const refused = await call(path, { method: 'POST', token: viewer.token });
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.match(refused.body.detail, /viewer.*needs developer/);

    const before = receiver.received.length;
    const sent = await call(path, { method: 'POST', token: developer.token });
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    assert.equal(sent.body.eventType, 'webhook.test');
    assert.equal(sent.body.status, 'pending');
    assert.deepEqual(sent.body.attempts, []);
    const [delivery] = (await receiver.until(before + 1)).slice(before);
    const event = assertSignedBoth(delivery as never, webhook.secret, webhook.id);
    assert.equal(event.type, 'webhook.test');
    assert.equal(event.source, 'webhooks');
    assert.equal(event.data.webhookId, webhook.id);
    assert.equal(delivery?.body, sent.body.body);
    // Its attempt is on the webhook's deliveries, as any event's.
    const deliveries = await readUntil(caller, `/webhooks/${webhook.id}/deliveries`, (body) =>
      body.data.some((d: Json) => d.id === sent.body.id && d.status === 'delivered'),
    );
    const shown = deliveries.data.find((d: Json) => d.id === sent.body.id);
    assert.deepEqual(
      shown.attempts.map((a: Json) => [a.attempt, a.statusCode]),
      [[1, 204]],
    );
    assert.equal(shown.body, delivery?.body);

    // Another tenant's webhook is not found; a deactivated one is sent nothing.
    assert.equal((await as(outsider, path, { method: 'POST' })).status, 404);
    await as(caller, `/webhooks/${webhook.id}`, { method: 'DELETE' });
    assert.equal((await as(caller, path, { method: 'POST' })).status, 409);
  });
});
