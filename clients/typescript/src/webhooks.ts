// Verifying a webhook delivery in one call, as the API reference's Webhooks tag asks: both signatures,
// against the registration's id and secret you stored from POST /webhooks (never the delivery's own
// X-Webhook-Id), each timestamp within 5 minutes. Node's crypto only.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A delivery's body: the event's `id` (dedupe on it), its `type` and its members. */
export interface WebhookEvent {
  id: string;
  type: string;
  [member: string]: unknown;
}

export interface WebhookRegistration {
  /** The `id` POST /webhooks answered. */
  id: string;
  /** The `secret` POST /webhooks answered (`whsec_…`, shown only then). */
  secret: string;
}

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

const TOLERANCE_MS = 5 * 60 * 1000;
const same = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const recent = (ms: number, now: number) => Number.isSafeInteger(ms) && Math.abs(now - ms) <= TOLERANCE_MS;

/**
 * The event of a delivery, or a WebhookVerificationError saying why it must be refused (answer 400).
 * `body`: the raw body text as received; `headers`: a Headers or a plain object (any case of names).
 */
export function verifyWebhook(
  body: string,
  headers: Headers | Record<string, string | string[] | undefined>,
  registration: WebhookRegistration,
  now = Date.now(),
): WebhookEvent {
  const header = (name: string): string => {
    if (headers instanceof Headers) return headers.get(name) ?? '';
    const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
    return [entry?.[1] ?? ''].flat().join(',');
  };
  const fail = (why: string): never => {
    throw new WebhookVerificationError(why);
  };

  // 1. Standard Webhooks: keyed on the secret, the one that proves the gateway sent it.
  const eventId = header('webhook-id');
  const ts = header('webhook-timestamp');
  if (!eventId || !/^\d+$/.test(ts) || !recent(Number(ts) * 1000, now))
    fail('webhook-timestamp is missing or more than 5 minutes off');
  const key = Buffer.from(registration.secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${eventId}.${ts}.${body}`).digest('base64');
  if (
    !header('webhook-signature')
      .split(' ')
      .some((s) => s.startsWith('v1,') && same(s.slice(3), expected))
  )
    fail('webhook-signature does not match');

  // 2. The contract's X-Service-Signature, keyed on the id you stored.
  if (header('x-webhook-id') !== registration.id) fail('X-Webhook-Id is not this registration');
  const wts = header('x-webhook-ts');
  if (!/^\d+$/.test(wts) || !recent(Number(wts), now))
    fail('X-Webhook-Ts is missing or more than 5 minutes off');
  const service = createHmac('sha256', registration.id).update(`${wts}.${body}`).digest('hex');
  if (!same(header('x-service-signature'), service)) fail('X-Service-Signature does not match');

  return JSON.parse(body) as WebhookEvent;
}
