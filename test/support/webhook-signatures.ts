// Both signatures of a delivery, checked as a receiver would: X-Service-Signature by an HMAC of our own
// (the contract's scheme), the Standard Webhooks headers by the maintained `standardwebhooks` library.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { ReceivedDelivery } from './webhook-receiver.ts';

/** The contract's signature: HMAC-SHA256 keyed on X-Webhook-Id over `${X-Webhook-Ts}.${body}`, hex. */
export function serviceSignatureHolds(delivery: ReceivedDelivery): boolean {
  const key = String(delivery.headers['x-webhook-id']);
  const ts = String(delivery.headers['x-webhook-ts']);
  const expected = createHmac('sha256', key).update(`${ts}.${delivery.body}`).digest('hex');
  return delivery.headers['x-service-signature'] === expected;
}

/** The delivery's headers as the library takes them (one string a name). */
const headersOf = (delivery: ReceivedDelivery): Record<string, string> =>
  Object.fromEntries(Object.entries(delivery.headers).map(([name, value]) => [name, String(value)]));

/**
 * Asserts both signatures hold (the Standard Webhooks one with `secret`, within the library's 5-minute
 * tolerance) and that another secret does not verify; returns the event the library parsed.
 */
// biome-ignore lint/suspicious/noExplicitAny: events are asserted on member by member.
export function assertSignedBoth(delivery: ReceivedDelivery, secret: string, webhookId?: string): any {
  assert.ok(serviceSignatureHolds(delivery), 'X-Service-Signature');
  if (webhookId) assert.equal(delivery.headers['x-webhook-id'], webhookId);
  assert.ok(Math.abs(Number(delivery.headers['x-webhook-ts']) - Date.now()) < 5 * 60_000, 'X-Webhook-Ts');
  const event = new Webhook(secret).verify(delivery.body, headersOf(delivery));
  assert.throws(
    () =>
      new Webhook(`whsec_${Buffer.alloc(24, 7).toString('base64')}`).verify(
        delivery.body,
        headersOf(delivery),
      ),
    /signature/i,
  );
  assert.equal((event as { id: string }).id, delivery.headers['webhook-id']);
  assert.equal(delivery.headers['content-type'], 'application/json');
  return event;
}
