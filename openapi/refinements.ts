// What a request member's refinements enforce that zod cannot write as JSON Schema by itself (a
// superRefine is code): each is stated here in JSON Schema, next to the zod schema it describes, so a
// generated client or a request validator refuses what the server refuses. The server stays the
// authority: test/integration/openapi-bounds.test.ts probes every stated bound against it.

import { type BankRule, bankRules, defaultBankRule } from '../lib/beneficiaries/bank-rules.ts';
import { bankAccountNumber, bankCodeField } from '../lib/beneficiaries/schema.ts';
import { LARGEST_LIMIT } from '../lib/http/pagination.ts';
import { amountField } from '../lib/ledger/amount-field.ts';
import { LEDGER_DECIMALS, MAX_AMOUNT, MEMO_BYTES } from '../lib/ledger/amounts.ts';
import { MAX_SANDBOX_RECEIPT, receiptAmount } from '../lib/onramp-references/schema.ts';
import { memoText } from '../lib/payments/schema.ts';
import { createWalletBody } from '../lib/wallets/schema.ts';
import type * as z from '../lib/zod.ts';
import type { JsonSchema } from './types.ts';

/** A BANK member's per-country format, which JSON Schema would say only as one if/then per country. */
const byCountry = (member: keyof BankRule): JsonSchema => ({
  'x-format-by-country': true,
  description: `Checked against the destination country's format once spaces and hyphens are removed (a 400 naming \`${member}\` otherwise): ${Object.entries(
    bankRules,
  )
    .map(([country, rule]) => `${country} ${rule[member].rule}`)
    .join('; ')}; any other country ${defaultBankRule[member].rule}.`,
});

const stated = new Map<z.core.$ZodType, JsonSchema>([
  [bankAccountNumber, byCountry('accountNumber')],
  [bankCodeField, byCountry('bankCode')],
  [
    amountField,
    {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: MAX_AMOUNT.toNumber(),
      multipleOf: 10 ** -LEDGER_DECIMALS,
      description: `A JSON number greater than 0 with at most ${LEDGER_DECIMALS} decimals (a whole number of stroops), at most ${MAX_AMOUNT.toFixed()} (int64 stroops, what the ledger can hold). It is read exactly as written: \`1.00000001\` is refused, not rounded.`,
    },
  ],
  [
    receiptAmount,
    {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: MAX_SANDBOX_RECEIPT,
      multipleOf: 0.01,
      description: `Fiat paid in: greater than 0, at most ${MAX_SANDBOX_RECEIPT}, with at most 2 decimals.`,
    },
  ],
  [
    memoText,
    {
      type: 'string',
      minLength: 1,
      maxLength: MEMO_BYTES,
      description: `A ledger text memo: at most ${MEMO_BYTES} bytes of UTF-8 (so at most ${MEMO_BYTES} characters, fewer when any is not ASCII: \`é\` takes 2 bytes). Omit it for none.`,
    },
  ],
  [
    createWalletBody,
    {
      // ownAccount defaults to false: only an explicit true spares the metadata.
      anyOf: [
        { properties: { ownAccount: { const: true } }, required: ['ownAccount'] },
        { required: ['metadata'] },
      ],
    },
  ],
]);

/** `override` for z.toJSONSchema: merges what the map states into the generated schema. */
export function stateRefinements({
  zodSchema,
  jsonSchema,
}: {
  zodSchema: z.core.$ZodType;
  jsonSchema: JsonSchema;
}): void {
  const statement = stated.get(zodSchema);
  if (statement) Object.assign(jsonSchema, statement);
}

/** `limit` as a caller writes it: digits, read as an integer (the query string carries text). */
export const limitSchema: JsonSchema = { type: 'integer', minimum: 1, maximum: LARGEST_LIMIT };
