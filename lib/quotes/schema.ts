// Quote requests (spec §2.6, §4.6). Shapes are 400s here; "exactly one of beneficiaryId or
// transactionType" and everything that needs the connector, beneficiary or destination is the service's
// 422 (or 404), because well-formed values can still break a rule or name nothing.
import * as z from 'zod';
import { connectorIdParam } from '../connectors/schema.ts';
import { transactionTypeParam } from '../connectors/transaction-types.ts';
import { amountField } from '../ledger/amount-field.ts';

/** `?type=onramp` (any case) prices an on-ramp; without `type` the quote is an off-ramp. */
export const createQuoteQuery = z.strictObject({
  type: z
    .string()
    .refine((value) => value.toLowerCase() === 'onramp', 'must be onramp (omit it for an off-ramp quote)')
    .transform(() => 'onramp' as const)
    .optional(),
});

/** null is taken as absent for the optional ids (callers often send explicit nulls). */
const optionalUuid = z
  .uuid('must be a UUID')
  .nullish()
  .transform((v) => v ?? undefined);

export const createQuoteBody = z.strictObject({
  amount: amountField,
  connectorId: connectorIdParam,
  beneficiaryId: optionalUuid,
  transactionType: transactionTypeParam.nullish().transform((v) => v ?? undefined),
  paymentDestinationId: optionalUuid,
});
export type CreateQuote = z.infer<typeof createQuoteBody>;
