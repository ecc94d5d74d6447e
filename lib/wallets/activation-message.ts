// The message a new wallet's record asks for on the activation queue (through the outbox, lib/outbox.ts),
// as a schema: the worker parses each body with it (Powertools Parser) instead of trusting a cast.
// Members it does not know are dropped, not refused, so a producer that adds one never strands messages
// at a worker that is not deployed yet.
import * as z from '../zod.ts';

export const activationMessage = z.object({
  environment: z.enum(['sandbox', 'production']),
  associationId: z.string().check(z.minLength(1), z.maxLength(128)),
  walletId: z.uuid(),
  requestedAt: z.iso.datetime(),
});

export type ActivationMessage = z.infer<typeof activationMessage>;
