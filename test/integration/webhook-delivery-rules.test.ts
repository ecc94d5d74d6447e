// Webhook delivery rules (issue #11 §2–3), against the running stack and real receivers on loopback:
// a failing receiver gets the same event again until it answers 2xx, every attempt logged; deactivation
// stops attempts and cancels the retry in flight; a redelivery is one more attempt of the same event;
// every event type the code produces arrives, in the envelope documented, to the registrations
// subscribed to it (and never to another tenant's); a slow receiver holds back no other registration.
// Every delivery received is verified both ways (test/support/webhook-signatures.ts).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, it } from 'vitest';
import { eventCatalogue } from '../../lib/webhooks/catalogue.ts';
import { retryDelayMs } from '../../lib/webhooks/schedule.ts';
import { as, type Caller, newCaller } from '../support/api.ts';
import { activationDone, bankDestination, created, person } from '../support/fixtures.ts';
import { accepted, ownWallet, settled, unopenedWallet } from '../support/payments.ts';
import {
  type ReceivedDelivery,
  type Receiver,
  receivedBy,
  startReceiver,
} from '../support/webhook-receiver.ts';
import { assertSignedBoth } from '../support/webhook-signatures.ts';

// biome-ignore lint/suspicious/noExplicitAny: resources and events are asserted on member by member.
type Json = any;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SCALE = Number(process.env.WEBHOOK_RETRY_SCALE);
const ENVELOPE_MEMBERS = ['createdAt', 'data', 'id', 'metaData', 'source', 'type'];

interface Hook {
  id: string;
  secret: string;
  receiver: Receiver;
}

/** A registration of `caller` for `events`, to a receiver of its own. */
async function hook(caller: Caller, events: string[]): Promise<Hook> {
  const receiver = await startReceiver();
  const { status, body } = await as(caller, '/webhooks', {
    method: 'POST',
    body: { url: receiver.url, events },
  });
  assert.equal(status, 201, JSON.stringify(body));
  return { id: body.id, secret: body.secret, receiver };
}

/** The events the hook's receiver got, each verified both ways. */
const eventsOf = (h: Hook, deliveries: ReceivedDelivery[] = h.receiver.received): Json[] =>
  deliveries.map((delivery) => assertSignedBoth(delivery, h.secret, h.id));

/** Waits until one of the webhook's logged deliveries satisfies `test`, and returns it. */
async function loggedDelivery(caller: Caller, webhookId: string, test: (d: Json) => boolean): Promise<Json> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { status, body } = await as(caller, `/webhooks/${webhookId}/deliveries`);
    assert.equal(status, 200, JSON.stringify(body));
    const found = body.data.find(test);
    if (found) return found;
    assert.ok(Date.now() < deadline, `no such delivery in time: ${JSON.stringify(body.data)}`);
    await pause(100);
  }
}

/** A BANK destination of a new beneficiary, its verification decided in the sandbox. */
async function decidedDestination(caller: Caller, decision: 'APPROVED' | 'REJECTED') {
  const beneficiary = await created(
    as(caller, '/beneficiaries', {
      method: 'POST',
      body: { individual: { firstName: 'Ada', lastName: 'Obi' } },
    }),
  );
  const destination = await created(
    as(caller, `/beneficiaries/${beneficiary}/payment-destinations`, {
      method: 'POST',
      body: bankDestination,
    }),
  );
  const decided = await as(caller, `/sandbox/payment-destinations/${destination}/verification`, {
    method: 'POST',
    body: { decision },
  });
  assert.equal(decided.status, 200, JSON.stringify(decided.body));
  return {
    beneficiary,
    destination,
    path: `/beneficiaries/${beneficiary}/payment-destinations/${destination}`,
  };
}

/** A third-party wallet (KYC Pending), open on the ledger. */
async function pendingWallet(caller: Caller): Promise<string> {
  const id = await created(
    as(caller, '/wallets', {
      method: 'POST',
      body: { walletName: 'KYC', assetCode: 'USDC', metadata: person },
    }),
  );
  await activationDone(caller, id);
  return id;
}

const redeliver = (caller: Caller, webhookId: string, deliveryId: string) =>
  as(caller, `/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`, { method: 'POST' });

describe('webhook delivery', () => {
  beforeAll(() => {
    assert.ok(SCALE > 0 && SCALE < 1, 'the test stack scales the retry schedule down');
  });

  it('retries a receiver that fails: attempt 3 brings the same event, and the log shows each attempt', async () => {
    const caller = await newCaller();
    const h = await hook(caller, ['payment_destination.approved']);
    h.receiver.answer = (i) =>
      i < 2 ? { status: 503, body: 'upstream unavailable. '.repeat(40) } : { status: 204 };
    const { destination } = await decidedDestination(caller, 'APPROVED');

    const deliveries = await h.receiver.until(3);
    const events = eventsOf(h, deliveries);
    const [first] = deliveries as [ReceivedDelivery];
    for (const delivery of deliveries) {
      assert.equal(delivery.headers['webhook-id'], first.headers['webhook-id'], 'the same event id');
      assert.equal(delivery.body, first.body, 'the same bytes');
    }
    assert.equal(events[0].type, 'payment_destination.approved');
    assert.equal(events[0].data.id, destination);
    const stamps = deliveries.map((d) => Number(d.headers['x-webhook-ts']));
    assert.deepEqual(
      stamps,
      [...new Set(stamps)].sort((x, y) => x - y),
      'each attempt is signed at its own time',
    );

    const delivery = await loggedDelivery(caller, h.id, (d) => d.status === 'delivered');
    assert.equal(delivery.eventId, first.headers['webhook-id']);
    assert.equal(delivery.eventType, 'payment_destination.approved');
    assert.equal(delivery.webhookId, h.id);
    assert.equal(delivery.nextAttemptAt, null);
    assert.deepEqual(
      delivery.attempts.map((a: Json) => [a.attempt, a.statusCode, a.error]),
      [
        [1, 503, null],
        [2, 503, null],
        [3, 204, null],
      ],
    );
    for (const [i, attempt] of delivery.attempts.entries()) {
      assert.ok(Number.isInteger(attempt.latencyMs) && attempt.latencyMs >= 0);
      assert.equal(Date.parse(attempt.at), stamps[i], 'the attempt’s time is its X-Webhook-Ts');
      if (i === 0) continue;
      // Backed off: no sooner than the schedule's shortest (jittered) wait after the attempt before.
      const gap = Date.parse(attempt.at) - Date.parse(delivery.attempts[i - 1].at);
      assert.ok(gap >= retryDelayMs(i, SCALE, () => 0), `wait before attempt ${i + 1}: ${gap} ms`);
    }
    assert.equal(delivery.attempts[0].responseExcerpt, 'upstream unavailable. '.repeat(40).slice(0, 256));
    assert.equal(delivery.attempts[2].responseExcerpt, null);
    await pause(1000);
    assert.equal(h.receiver.received.length, 3, 'nothing after the delivery');
  });

  it('stops at deactivation: no attempt after DELETE, the pending retry ends cancelled, and redelivery is refused (409)', async () => {
    const caller = await newCaller();
    const h = await hook(caller, ['payment_destination.rejected']);
    h.receiver.answer = () => ({ status: 500 });
    await decidedDestination(caller, 'REJECTED');
    await h.receiver.until(2);
    const deleted = await as(caller, `/webhooks/${h.id}`, { method: 'DELETE' });
    assert.equal(deleted.status, 200);
    const sent = h.receiver.received.length;

    const cancelled = await loggedDelivery(caller, h.id, (d) => d.status === 'cancelled');
    assert.equal(cancelled.nextAttemptAt, null);
    assert.equal(cancelled.attempts.length, sent, 'every attempt made was logged, none after');
    assert.ok(cancelled.attempts.every((a: Json) => a.statusCode === 500));
    await pause(1500);
    assert.equal(h.receiver.received.length, sent, 'no attempt after deactivation');
    eventsOf(h);

    const refused = await redeliver(caller, h.id, cancelled.id);
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.match(refused.body.detail ?? refused.body.title, /deactivated/);
    assert.equal((await redeliver(caller, h.id, randomUUID())).status, 404);
    await pause(500);
    assert.equal(h.receiver.received.length, sent);
  });

  it('redelivers a delivered event on request (202): one more attempt, the same event id and body', async () => {
    const caller = await newCaller();
    const h = await hook(caller, ['payment_destination.rejected']);
    await decidedDestination(caller, 'REJECTED');
    const delivered = await loggedDelivery(caller, h.id, (d) => d.status === 'delivered');
    assert.equal(delivered.attempts.length, 1);

    const asked = await redeliver(caller, h.id, delivered.id);
    assert.equal(asked.status, 202, JSON.stringify(asked.body));
    assert.equal(asked.body.id, delivered.id);
    assert.equal(asked.body.status, 'pending');
    assert.equal(asked.body.attempts.length, 1);
    const [first, second] = (await h.receiver.until(2)) as [ReceivedDelivery, ReceivedDelivery];
    eventsOf(h);
    assert.equal(second.headers['webhook-id'], first.headers['webhook-id']);
    assert.equal(second.headers['webhook-id'], delivered.eventId);
    assert.equal(second.body, first.body);
    const again = await loggedDelivery(
      caller,
      h.id,
      (d) => d.status === 'delivered' && d.attempts.length === 2,
    );
    assert.deepEqual(
      again.attempts.map((a: Json) => [a.attempt, a.statusCode]),
      [
        [1, 204],
        [2, 204],
      ],
    );
    assert.equal(again.nextAttemptAt, null);
    await pause(1000);
    assert.equal(h.receiver.received.length, 2, 'one more attempt, not more');
  });

  it('redelivers at most 5 times a minute per webhook: the 6th answers 429 with Retry-After, and sends nothing', async () => {
    // The window is a calendar minute: start early in one, so all six fall in it.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 30_000) await pause(60_000 - intoMinute + 100);
    const caller = await newCaller();
    const h = await hook(caller, ['payment_destination.rejected']);
    await decidedDestination(caller, 'REJECTED');
    const delivered = await loggedDelivery(caller, h.id, (d) => d.status === 'delivered');
    for (let i = 1; i <= 5; i++) {
      assert.equal((await redeliver(caller, h.id, delivered.id)).status, 202, `redelivery ${i}`);
      await loggedDelivery(caller, h.id, (d) => d.status === 'delivered' && d.attempts.length === i + 1);
    }
    const refused = await redeliver(caller, h.id, delivered.id);
    assert.equal(refused.status, 429, JSON.stringify(refused.body));
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    await pause(1000);
    assert.equal(h.receiver.received.length, 6, 'the event and 5 redeliveries, no more');
    const log = await loggedDelivery(caller, h.id, (d) => d.id === delivered.id);
    assert.equal(log.status, 'delivered', 'the refused redelivery left the delivery as it was');
  });

  it('sends each event type the code produces, in the envelope, to the registrations subscribed to it and to no other tenant', async () => {
    const [caller, outsider] = await Promise.all([newCaller(), newCaller()]);
    const [all, completedOnly, outsiders] = await Promise.all([
      hook(caller, ['*']),
      hook(caller, ['payment.completed']),
      hook(outsider, ['*']),
    ]);
    const [funded, unfunded, target, verifiedWallet, rejectedWallet] = await Promise.all([
      ownWallet(caller, 'USDC', 10),
      unopenedWallet(caller),
      ownWallet(caller, 'USDC'),
      pendingWallet(caller),
      pendingWallet(caller),
    ]);
    const pay = (from: string) =>
      accepted(caller, 'p2p/own', {
        transactionId: randomUUID(),
        walletId: from,
        destinationWalletId: target.id,
        sendingAssetCode: 'USDC',
        amount: 2,
      });
    const [completed, failed] = await Promise.all([pay(funded.id), pay(unfunded.id)]);
    // Opened, empty, once its payment is accepted (acceptance refuses what a wallet it sees cannot spend).
    await unfunded.open();
    const kyc = (walletId: string, decision: string) =>
      as(caller, `/sandbox/wallets/${walletId}/kyc`, { method: 'POST', body: { decision } });
    const [approved, rejected, verifiedAnswer, rejectedAnswer] = await Promise.all([
      decidedDestination(caller, 'APPROVED'),
      decidedDestination(caller, 'REJECTED'),
      kyc(verifiedWallet, 'Verified'),
      kyc(rejectedWallet, 'Rejected'),
    ]);
    assert.equal(verifiedAnswer.status, 200, JSON.stringify(verifiedAnswer.body));
    assert.equal(rejectedAnswer.status, 200, JSON.stringify(rejectedAnswer.body));
    assert.equal((await settled(caller, completed)).status, 'completed');
    assert.equal((await settled(caller, failed)).status, 'failed');

    await all.receiver.until(8, 30_000);
    await pause(1500);
    const events = eventsOf(all);
    const byType = (type: string) => events.filter((e) => e.type === type);
    assert.deepEqual(events.map((e) => e.type).sort(), [
      'payment.completed',
      'payment.failed',
      'payment.initiated',
      'payment.initiated',
      'payment_destination.approved',
      'payment_destination.rejected',
      'wallet.rejected',
      'wallet.verified',
    ]);
    assert.equal(new Set(events.map((e) => e.id)).size, 8, 'one id per event');
    for (const event of events) {
      assert.deepEqual(Object.keys(event).sort(), ENVELOPE_MEMBERS, event.type);
      assert.equal(event.source, eventCatalogue[event.type as keyof typeof eventCatalogue].source);
      assert.deepEqual(event.metaData, { environment: 'sandbox' });
      assert.equal(event.createdAt, event.data.updatedAt, 'the change’s time');
    }
    // `data` is the resource as the API returns it.
    assert.deepEqual(
      byType('payment.initiated')
        .map((e) => [e.data.transactionRecordId, e.data.status])
        .sort(),
      [
        [completed, 'initiated'],
        [failed, 'initiated'],
      ].sort(),
    );
    // A record as GET /transactions/{id} answers it, but for its timeline (read alone, not in events).
    const recordOf = async (id: string) => {
      const { timeline, ...record } = (await as(caller, `/transactions/${id}`)).body;
      assert.ok(Array.isArray(timeline));
      return record;
    };
    assert.deepEqual(byType('payment.completed')[0].data, await recordOf(completed));
    assert.deepEqual(byType('payment.failed')[0].data, await recordOf(failed));
    assert.deepEqual(byType('wallet.verified')[0].data, {
      ...(await as(caller, `/wallets/${verifiedWallet}`)).body,
      balances: null,
    });
    assert.deepEqual(byType('wallet.rejected')[0].data, {
      ...(await as(caller, `/wallets/${rejectedWallet}`)).body,
      balances: null,
    });
    assert.deepEqual(byType('payment_destination.approved')[0].data, (await as(caller, approved.path)).body);
    assert.deepEqual(byType('payment_destination.rejected')[0].data, (await as(caller, rejected.path)).body);

    // Subscribed to payment.completed alone: that one event, none of the others.
    assert.deepEqual(
      eventsOf(completedOnly).map((e) => [e.type, e.data.transactionRecordId]),
      [['payment.completed', completed]],
    );
    assert.equal(outsiders.receiver.received.length, 0, 'another tenant’s events never reach it');
    const outsiderLog = await as(outsider, `/webhooks/${outsiders.id}/deliveries`);
    assert.deepEqual(outsiderLog.body.data, []);
  });

  it('does not let a slow receiver hold back another registration’s delivery of the same event', async () => {
    const caller = await newCaller();
    const [slow, fast] = await Promise.all([
      hook(caller, ['payment_destination.approved']),
      hook(caller, ['payment_destination.approved']),
    ]);
    // The slow receiver answers only once the fast one has its delivery (then 3 s more): were the fast
    // delivery held back behind the slow one, the slow attempt would time out instead (no clock involved).
    const fastHasIt = receivedBy(fast.receiver);
    slow.receiver.answer = () => ({ status: 204, after: fastHasIt, delayMs: 3000 });
    await decidedDestination(caller, 'APPROVED');
    const [fastOne] = (await fast.receiver.until(1)) as [ReceivedDelivery];
    const [slowOne] = (await slow.receiver.until(1)) as [ReceivedDelivery];
    assert.equal(fastOne.headers['webhook-id'], slowOne.headers['webhook-id'], 'the same event');
    const slowLogged = await loggedDelivery(caller, slow.id, (d) => d.status === 'delivered');
    assert.ok(slowLogged.attempts[0].latencyMs >= 3000, 'the slow receiver was waited for, within 10 s');
    assert.equal(slowLogged.attempts[0].statusCode, 204, 'answered, not timed out');
    assert.equal(slowLogged.attempts.length, 1);
    eventsOf(slow);
    eventsOf(fast);
  });
});
