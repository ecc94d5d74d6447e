// The message a sandbox funding payment still pending puts on the ledger-submissions queue: enough to
// resume its intent (the same id, the same request, so the same purpose) without the client's retry.
// Only the sandbox function sends it, and it holds only the sandbox KEK; the ledger-submitter that reads
// it holds both. So the message names its environment and may only name the sandbox: a production one
// (a bug or a compromised sandbox function asking the production funding account to pay) fails to parse,
// is refused as its own batch item and ends in the dead-letter queue, never signed.
import * as z from '../zod.ts';

export const FUNDING_RESUME_KIND = 'sandbox-funding';

export const fundingResumeMessage = z.object({
  kind: z.literal(FUNDING_RESUME_KIND),
  environment: z.literal('sandbox'),
  associationId: z.string().check(z.minLength(1), z.maxLength(128)),
  intentId: z.string().check(z.minLength(1), z.maxLength(400)),
  walletId: z.uuid(),
  assetCode: z.string().check(z.regex(/^[A-Za-z0-9]{1,12}$/)),
  /** The decimal string the payment was built with (at most 7 places). */
  amount: z.string().check(z.regex(/^\d{1,12}(\.\d{1,7})?$/)),
  requestedAt: z.iso.datetime(),
});

export type FundingResumeMessage = z.infer<typeof fundingResumeMessage>;
