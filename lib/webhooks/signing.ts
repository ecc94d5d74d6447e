// How a delivery is signed. Two signatures over the same body:
// - the contract's: `X-Service-Signature` = hex HMAC-SHA256 keyed on the `X-Webhook-Id` value
//   (the registration id) over `${X-Webhook-Ts}.${body}`. That key travels in a header beside it, so it
//   proves nothing about the sender: it only detects corruption. It is kept because the contract has it.
// - Standard Webhooks (the open scheme with maintained libraries in many languages): `webhook-id` (the
//   event id), `webhook-timestamp` (Unix seconds), `webhook-signature: v1,<base64 HMAC-SHA256>` keyed on
//   the registration's secret (`whsec_` + base64), over `${webhook-id}.${webhook-timestamp}.${body}`.
//   This one authenticates: only the receiver and this service hold the secret.
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new registration secret: 24 random bytes, as Standard Webhooks spells them. */
export const newWebhookSecret = (): string => `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;

export function serviceSignature(webhookId: string, timestampMs: number, body: string): string {
  return createHmac('sha256', webhookId).update(`${timestampMs}.${body}`).digest('hex');
}

export function standardSignature(
  secret: string,
  eventId: string,
  timestampSeconds: number,
  body: string,
): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${eventId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** Every header of a delivery made at `now`. */
export function deliveryHeaders(input: {
  webhookId: string;
  eventId: string;
  secret: string;
  body: string;
  now: Date;
}): Record<string, string> {
  const ms = input.now.getTime();
  const seconds = Math.floor(ms / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'payments-gateway-webhooks/1',
    'x-webhook-id': input.webhookId,
    'x-webhook-ts': String(ms),
    'x-service-signature': serviceSignature(input.webhookId, ms, input.body),
    'webhook-id': input.eventId,
    'webhook-timestamp': String(seconds),
    'webhook-signature': standardSignature(input.secret, input.eventId, seconds, input.body),
  };
}
