// The message a completed record's change puts on the payment-notifications queue (through the outbox,
// lib/outbox.ts): which record to tell its beneficiary of, and the event's id, which the notice is sent
// once by. What is said is read from the record. `attempt` counts the worker's own re-queues after a
// channel failed (lib/notifications/service.ts).
import * as z from '../zod.ts';

export const noticeMessage = z.object({
  environment: z.enum(['sandbox', 'production']),
  associationId: z.string().check(z.minLength(1), z.maxLength(128)),
  transactionRecordId: z.uuid(),
  eventId: z.uuid(),
  attempt: z._default(z.number().check(z.int(), z.positive()), 1),
});

export type NoticeMessage = z.input<typeof noticeMessage>;
