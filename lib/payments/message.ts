// The message a transaction record's insert puts on the ledger-submissions queue (through the outbox,
// lib/outbox.ts): which record to execute. Everything else is read from the record itself, so a
// message carries no amount that could disagree with it. `attempt` counts the worker's own re-queues of
// a payment still in flight (execution.ts), which back off without waiting for a visibility timeout.
import * as z from '../zod.ts';

export const PAYMENT_KIND = 'payment';

export const paymentMessage = z.object({
  kind: z.literal(PAYMENT_KIND),
  environment: z.enum(['sandbox', 'production']),
  associationId: z.string().check(z.minLength(1), z.maxLength(128)),
  transactionRecordId: z.uuid(),
  requestedAt: z.iso.datetime(),
  /** The request that created the record: the worker's log lines carry it beside the record's id. */
  requestId: z.optional(z.string().check(z.maxLength(256))),
  attempt: z._default(z.number().check(z.int(), z.positive()), 1),
});

export type PaymentMessage = z.input<typeof paymentMessage>;
