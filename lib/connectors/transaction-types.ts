// Transaction types: who pays whom (C = consumer / individual, B = business), payer first. Connectors
// publish them as `C_2_C`…; requests take `C2C`… in any case (and the connector form `C_2_C` too).
import * as z from '../zod.ts';

export const TRANSACTION_TYPES = ['C_2_C', 'C_2_B', 'B_2_C', 'B_2_B'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** The request form of a transaction type: `C2C`. */
export type ShortTransactionType = 'C2C' | 'C2B' | 'B2C' | 'B2B';

export const shortForm = (type: TransactionType): ShortTransactionType =>
  type.replaceAll('_2_', '2') as ShortTransactionType;

/** `C2C`, `c2c`, `C_2_C` → `C_2_C`; anything else is a 400 naming the field that carried it. */
export const transactionTypeParam = z.pipe(
  z.string().check(z.regex(/^[BCbc](2|_2_)[BCbc]$/, 'must be one of C2C, C2B, B2C, B2B')),
  z.transform((value: string) => {
    const upper = value.toUpperCase();
    return `${upper[0]}_2_${upper.at(-1)}` as TransactionType;
  }),
);

/** The member of `supportedTransactionType` that mirrors a type: `B_2_C` → `b2c`. */
export const supportedKey = (type: TransactionType) =>
  shortForm(type).toLowerCase() as 'c2c' | 'c2b' | 'b2c' | 'b2b';

export type PartyKind = 'business' | 'individual';

/** The type of a transfer from `payer` to `payee`. */
export const transactionTypeOf = (payer: PartyKind, payee: PartyKind): TransactionType =>
  `${payer === 'business' ? 'B' : 'C'}_2_${payee === 'business' ? 'B' : 'C'}` as TransactionType;
