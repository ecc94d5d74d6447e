// What the webhook routes answer. The secret appears once, in the answer that created it.
import { pageOf } from '../http/responses.ts';
import * as z from '../zod.ts';
import { ATTEMPT_ERRORS } from './attempt-errors.ts';
import type { DeliveryAttempt, DeliveryRecord, WebhookRecord } from './repo.ts';
import { KEPT_ATTEMPTS } from './schedule.ts';

const timestamp = z.iso.datetime();

export const webhookResource = z.strictObject({
  id: z.uuid(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.nullable(z.string()),
  status: z.enum(['active', 'deactivated']),
  createdAt: timestamp,
  updatedAt: timestamp,
  deactivatedAt: z.nullable(timestamp),
});

export const createdWebhookResource = z.extend(webhookResource, {
  secret: z
    .string()
    .check(
      z.regex(/^whsec_[A-Za-z0-9+/]+=*$/),
      z.describe('The Standard Webhooks signing secret. Shown once, here: store it.'),
    ),
});

export const webhookPage = pageOf(webhookResource);

export const deliveryResource = z.strictObject({
  id: z.uuid(),
  webhookId: z.uuid(),
  eventId: z.uuid(),
  eventType: z.string(),
  status: z.enum(['pending', 'delivered', 'failed', 'cancelled']),
  attempts: z
    .array(
      z.strictObject({
        attempt: z.number().check(z.int()),
        at: timestamp,
        statusCode: z.nullable(z.number().check(z.int())),
        error: z
          .nullable(z.enum(ATTEMPT_ERRORS))
          .check(
            z.describe(
              'Why no HTTP answer came (statusCode null), as a category only: blocked (the URL or an address it resolved to is not allowed), dns, refused, unreachable, reset, tls, invalid_response (the answer was not HTTP), timeout, connection. Null when the receiver answered.',
            ),
          ),
        latencyMs: z.number().check(z.int()),
        responseExcerpt: z.nullable(z.string()).check(z.describe('At most the first 256 characters.')),
      }),
    )
    .check(z.describe(`The delivery's last ${KEPT_ATTEMPTS} attempts at most, oldest first.`)),
  body: z
    .string()
    .check(
      z.describe(
        'The body sent, exactly as sent (the event envelope, JSON text): every attempt sends the same bytes.',
      ),
    ),
  nextAttemptAt: z.nullable(timestamp),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const deliveryPage = pageOf(deliveryResource);

export const toWebhookResource = (record: WebhookRecord): z.infer<typeof webhookResource> => ({
  id: record.webhookId,
  url: record.url,
  events: record.events,
  description: record.description,
  status: record.status,
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
  deactivatedAt: record.deactivatedAt,
});

export const toDeliveryResource = (
  record: DeliveryRecord,
  attempts: DeliveryAttempt[],
): z.infer<typeof deliveryResource> => ({
  id: record.deliveryId,
  webhookId: record.webhookId,
  eventId: record.eventId,
  eventType: record.eventType,
  status: record.status,
  attempts,
  body: record.payload,
  nextAttemptAt: record.nextAttemptAt,
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
});

export const webhookExample: z.infer<typeof webhookResource> = {
  id: '8e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b',
  url: 'https://hooks.example.com/payments',
  events: ['payment.completed', 'payment.failed'],
  description: 'Ledger reconciliation',
  status: 'active',
  createdAt: '2026-11-23T09:00:00.000Z',
  updatedAt: '2026-11-23T09:00:00.000Z',
  deactivatedAt: null,
};

export const deliveryExample: z.infer<typeof deliveryResource> = {
  id: '019ab2c4-5d6e-8f70-8a1b-2c3d4e5f6a7b',
  webhookId: webhookExample.id,
  eventId: '2b3c4d5e-6f70-5a8b-9c0d-1e2f3a4b5c6d',
  eventType: 'payment.completed',
  status: 'delivered',
  attempts: [
    {
      attempt: 1,
      at: '2026-11-23T09:30:04.700Z',
      statusCode: 503,
      error: null,
      latencyMs: 41,
      responseExcerpt: 'upstream unavailable',
    },
    {
      attempt: 2,
      at: '2026-11-23T09:30:09.812Z',
      statusCode: 200,
      error: null,
      latencyMs: 38,
      responseExcerpt: null,
    },
  ],
  body: '{"id":"2b3c4d5e-6f70-5a8b-9c0d-1e2f3a4b5c6d","type":"payment.completed","createdAt":"2026-11-23T09:30:04.512Z","source":"payments","data":{"transactionRecordId":"6f1c2a4e-3b1d-5c8e-9f20-7a3b4c5d6e7f","status":"completed"},"metaData":{"environment":"sandbox"}}',
  nextAttemptAt: null,
  createdAt: '2026-11-23T09:30:04.650Z',
  updatedAt: '2026-11-23T09:30:09.812Z',
};
