// The message that asks the delivery worker for a delivery's next attempt: from the delivery's insert
// or its redelivery (through the outbox), or re-queued by the worker itself until `notBefore` (SQS delays
// at most 15 minutes; the retry schedule waits up to 20 hours).
import * as z from '../zod.ts';

export const deliveryMessage = z.object({
  environment: z.enum(['sandbox', 'production']),
  associationId: z.string().check(z.minLength(1), z.maxLength(128)),
  webhookId: z.uuid(),
  deliveryId: z.uuid(),
  /** Epoch milliseconds before which the attempt must not be made. */
  notBefore: z.optional(z.number().check(z.int(), z.nonnegative())),
  /** Times the attempt was put back because its tenant's share of the lane was taken (tenant-share.ts). */
  deferrals: z.optional(z.number().check(z.int(), z.nonnegative())),
});

export type DeliveryMessage = z.infer<typeof deliveryMessage>;
