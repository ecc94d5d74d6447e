// Webhook requests (docs/decisions/request-validation.md). Shapes are 400s here; whether an event type exists
// and whether the URL may be reached are the service's 422s, because a well-formed value can still name
// nothing or point inside the network.
import { pageQueryShape } from '../http/pagination.ts';
import { uuidField, uuidParams } from '../http/uuid-field.ts';
import * as z from '../zod.ts';

export const createWebhookBody = z.strictObject({
  url: z.string().check(z.minLength(1), z.maxLength(2048)),
  events: z
    .array(z.string().check(z.minLength(1), z.maxLength(64)))
    .check(z.minLength(1, 'must name at least one event type (or "*")'), z.maxLength(50)),
  description: z.optional(z.nullable(z.string().check(z.maxLength(500)))),
});
export type CreateWebhook = z.infer<typeof createWebhookBody>;

export const webhookIdParams = uuidParams('webhookId');

export const deliveryIdParams = uuidParams('webhookId', 'deliveryId');

export const listWebhooksQuery = z.strictObject(pageQueryShape);

export const listResourceDeliveriesQuery = z.strictObject({ ...pageQueryShape, resourceId: uuidField });
