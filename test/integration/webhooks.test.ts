// Webhooks end to end: a registration to a receiver on loopback, a P2P payment, and its payment.initiated
// and payment.completed events arriving signed both ways (checked here by an implementation of our own
// of each scheme, and by the standardwebhooks library), logged as delivered; then the registration
// deactivated and nothing more sent.
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { beforeAll, describe, it } from 'vitest';
import { as, type Caller, newCaller } from '../support/api.ts';
import { accepted, type OwnWallet, ownWallet, settled } from '../support/payments.ts';
import { type ReceivedDelivery, type Receiver, startReceiver } from '../support/webhook-receiver.ts';
import { assertSignedBoth, serviceSignatureHolds } from '../support/webhook-signatures.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Standard Webhooks: v1,base64 HMAC-SHA256 keyed on the secret's bytes over `${id}.${timestamp}.${body}`. */
function standardSignatureHolds(delivery: ReceivedDelivery, secret: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${delivery.headers['webhook-id']}.${delivery.headers['webhook-timestamp']}.${delivery.body}`;
  const expected = createHmac('sha256', key).update(signed).digest('base64');
  return String(delivery.headers['webhook-signature'])
    .split(' ')
    .some((signature) => signature === `v1,${expected}`);
}

describe('webhooks end to end', () => {
  let alice: Caller;
  let receiver: Receiver;
  let a: OwnWallet;
  let b: OwnWallet;

  beforeAll(async () => {
    alice = await newCaller();
    receiver = await startReceiver();
    [a, b] = await Promise.all([ownWallet(alice, 'USDC', 100), ownWallet(alice, 'USDC')]);
  });

  it('delivers a payment’s lifecycle, signed both ways, and stops once deactivated', async () => {
    const registered = await as(alice, '/webhooks', {
      method: 'POST',
      body: { url: receiver.url, events: ['payment.initiated', 'payment.completed'], description: 'e2e' },
    });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    const { id: webhookId, secret } = registered.body;
    assert.match(secret, /^whsec_/);
    const read = await as(alice, `/webhooks/${webhookId}`);
    assert.equal(read.body.status, 'active');
    assert.equal(read.body.secret, undefined, 'the secret is shown once');

    const payment = await accepted(alice, 'p2p/own', {
      transactionId: randomUUID(),
      walletId: a.id,
      destinationWalletId: b.id,
      sendingAssetCode: 'USDC',
      // Five stroops: JSON.stringify would write 5e-7.
      amount: 0.0000005,
    });
    const record = await settled(alice, payment);
    assert.equal(record.status, 'completed');
    const deliveries = await receiver.until(2);
    const events = deliveries.map((d) => JSON.parse(d.body));
    assert.deepEqual(events.map((e) => e.type).sort(), ['payment.completed', 'payment.initiated']);
    for (const [i, delivery] of deliveries.entries()) {
      const event = events[i];
      assert.equal(delivery.headers['content-type'], 'application/json');
      assert.equal(delivery.headers['x-webhook-id'], webhookId);
      assert.ok(Math.abs(Number(delivery.headers['x-webhook-ts']) - Date.now()) < 60_000);
      assert.equal(delivery.headers['webhook-id'], event.id);
      assert.ok(serviceSignatureHolds(delivery), 'X-Service-Signature');
      assert.ok(standardSignatureHolds(delivery, secret), 'webhook-signature');
      assert.deepEqual(assertSignedBoth(delivery, secret, webhookId), event, 'the standardwebhooks library');
      assert.ok(!standardSignatureHolds(delivery, `whsec_${Buffer.alloc(24).toString('base64')}`));
      assert.equal(event.source, 'payments');
      assert.equal(event.data.transactionRecordId, payment);
      assert.match(delivery.body, /"sendAmount":0\.0000005,/, 'amounts in plain decimals');
      // A member's value, not text inside a string (an intentId such as payment:48165e07-…).
      assert.doesNotMatch(delivery.body, /":-?\d+(\.\d+)?e[-+]?\d/i, 'no number in exponent form');
      assert.deepEqual(event.metaData, { environment: 'sandbox' });
    }
    const completed = events.find((e) => e.type === 'payment.completed');
    assert.equal(completed.data.status, 'completed');
    assert.equal(completed.data.stellarTxHash, record.stellarTxHash);

    const log = await as(alice, `/webhooks/${webhookId}/deliveries`);
    assert.equal(log.status, 200);
    assert.deepEqual(
      log.body.data.map((d: { status: string; attempts: unknown[] }) => [d.status, d.attempts.length]),
      [
        ['delivered', 1],
        ['delivered', 1],
      ],
    );

    const deleted = await as(alice, `/webhooks/${webhookId}`, { method: 'DELETE' });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.status, 'deactivated');
    const again = await as(alice, `/webhooks/${webhookId}`, { method: 'DELETE' });
    assert.deepEqual(again.body, deleted.body);
    await settled(
      alice,
      await accepted(alice, 'p2p/own', {
        transactionId: randomUUID(),
        walletId: a.id,
        destinationWalletId: b.id,
        sendingAssetCode: 'USDC',
        amount: 1,
      }),
    );
    await pause(1500);
    assert.equal(receiver.received.length, 2, 'nothing is sent to a deactivated webhook');
  });
});
