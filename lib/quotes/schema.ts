// Quote requests (docs/decisions/request-validation.md). Shapes are 400s here; "exactly one of beneficiaryId
// or transactionType" and everything that needs the connector, beneficiary or destination is the service's
// 422 (or 404), because well-formed values can still break a rule or name nothing.
import { connectorIdParam } from '../connectors/schema.ts';
import { transactionTypeParam } from '../connectors/transaction-types.ts';
import { uuidField } from '../http/uuid-field.ts';
import { amountField } from '../ledger/amount-field.ts';
import * as z from '../zod.ts';

/** `?type=onramp` (any case) prices an on-ramp; without `type` the quote is an off-ramp. */
export const createQuoteQuery = z.strictObject({
  type: z.optional(
    z.pipe(
      z
        .string()
        .check(
          z.refine(
            (value) => value.toLowerCase() === 'onramp',
            'must be onramp (omit it for an off-ramp quote)',
          ),
        ),
      z.transform(() => 'onramp' as const),
    ),
  ),
});

/** null is taken as absent for the optional members (callers often send explicit nulls). */
const nullAsAbsent = <T extends z.core.SomeType>(schema: T) =>
  z.pipe(
    z.nullish(schema),
    z.transform((value: z.output<T> | null | undefined) => value ?? undefined),
  );

const optionalUuid = nullAsAbsent(uuidField);

export const createQuoteBody = z.strictObject({
  amount: amountField,
  connectorId: connectorIdParam,
  beneficiaryId: optionalUuid,
  transactionType: nullAsAbsent(transactionTypeParam),
  paymentDestinationId: optionalUuid,
});
export type CreateQuote = z.infer<typeof createQuoteBody>;
