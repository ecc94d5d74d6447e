// The message a sandbox funding payment still pending puts on the ledger-submissions queue: enough to
// resume its intent (the same id, the same request, so the same purpose) without the client's retry.
import * as z from '../zod.ts';

export const FUNDING_RESUME_KIND = 'sandbox-funding';

export const fundingResumeMessage = z.object({
  kind: z.literal(FUNDING_RESUME_KIND),
  environment: z.enum(['sandbox', 'production']),
  associationId: z.string().check(z.minLength(1), z.maxLength(128)),
  intentId: z.string().check(z.minLength(1), z.maxLength(400)),
  walletId: z.uuid(),
  assetCode: z.string().check(z.regex(/^[A-Za-z0-9]{1,12}$/)),
  /** The decimal string the payment was built with (at most 7 places). */
  amount: z.string().check(z.regex(/^\d{1,12}(\.\d{1,7})?$/)),
  requestedAt: z.iso.datetime(),
});

export type FundingResumeMessage = z.infer<typeof fundingResumeMessage>;
