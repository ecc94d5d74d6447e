// Payment submissions and transaction reads (docs/decisions/request-validation.md). Shapes are 400s here: an
// unknown member (idempotencyKey, externalReference, any pricing member such as fee, rate or destMin, a
// beneficiary member on an own route) is refused by name, because pricing is never taken from the caller and
// `transactionId` is the only identity. Whether a wallet, beneficiary or asset exists, and the rules that
// need them, are the service's 404/403/422.
import BigNumber from 'bignumber.js';
import { assetCodeParam } from '../assets/schema.ts';
import { isExactNumber } from '../http/json-text.ts';
import { pageQueryShape } from '../http/pagination.ts';
import { uuidField } from '../http/uuid-field.ts';
import { amountField } from '../ledger/amount-field.ts';
import { MAX_AMOUNT, MEMO_BYTES } from '../ledger/amounts.ts';
import * as z from '../zod.ts';

/** fromRef / toRef: omitted or null is no reference; anything else must match the contract's pattern. */
const reference = z.optional(
  z.nullable(
    z.string().check(z.regex(/^[A-Za-z0-9-]{1,16}$/, 'must be 1 to 16 letters, digits or hyphens (or null)')),
  ),
);

/** A ledger text memo: at most 28 bytes of UTF-8. */
export const memoText = z.string().check(
  z.minLength(1, 'must not be empty (omit it for no memo)'),
  z.refine(
    (text) => Buffer.byteLength(text, 'utf8') <= MEMO_BYTES,
    `must be at most ${MEMO_BYTES} bytes of UTF-8`,
  ),
);
const memo = z.optional(memoText);

const notifyFlag = z.optional(z.boolean());

const references = { fromRef: reference, toRef: reference };

export const p2pOwnBody = z.strictObject({
  transactionId: uuidField,
  walletId: uuidField,
  destinationWalletId: uuidField,
  sendingAssetCode: assetCodeParam,
  amount: amountField,
  memo,
  ...references,
});

export const swapOwnBody = z.strictObject({
  ...p2pOwnBody.shape,
  receivingAssetCode: assetCodeParam,
});

export const p2pBeneficiaryBody = z.strictObject({
  transactionId: uuidField,
  walletId: uuidField,
  beneficiaryId: uuidField,
  paymentDestinationId: uuidField,
  sendingAssetCode: assetCodeParam,
  amount: amountField,
  ...references,
  notifyEmail: notifyFlag,
  notifyWhatsApp: notifyFlag,
});

export const swapBeneficiaryBody = z.strictObject({
  ...p2pBeneficiaryBody.shape,
  receivingAssetCode: assetCodeParam,
});

export const transferLeg = z.strictObject({
  walletId: uuidField,
  destinationWalletId: uuidField,
  sendingAssetCode: assetCodeParam,
  amount: amountField,
});

/**
 * The transfers' sum is the record's sendAmount, written as a JSON number like each amount: it must be one
 * that a JSON number holds exactly (600000000.0000001 + 600000000 is not: it would read back as
 * 1200000000), and one the ledger can hold, or the record would show another figure than it debits.
 */
function sumsToAnAmount(legs: { amount: number }[], ctx: z.core.$RefinementCtx<unknown>): void {
  if (!legs.every((leg) => typeof leg.amount === 'number')) return;
  const total = legs.reduce((sum, leg) => sum.plus(String(leg.amount)), new BigNumber(0));
  if (!isExactNumber(total.toFixed()))
    ctx.addIssue({
      code: 'custom',
      message: `must sum to an amount a JSON number holds exactly (at most 15 significant digits), not ${total.toFixed()}`,
    });
  else if (total.gt(MAX_AMOUNT))
    ctx.addIssue({
      code: 'custom',
      message: `must sum to at most ${MAX_AMOUNT.toFixed()} (what the ledger can hold)`,
    });
}

export const p2pOwnMultiBody = z.strictObject({
  transactionId: uuidField,
  transfers: z
    .array(transferLeg)
    .check(z.minLength(1, 'must hold at least one transfer'), z.superRefine(sumsToAnAmount)),
  ...references,
});

/** A compliance code (purpose, source of funds): checked against the enums route's vocabulary by the service. */
const complianceCode = z.optional(
  z.string().check(z.regex(/^[A-Z0-9_]{1,64}$/, 'must be a code of GET /payments/enums (upper case)')),
);

/**
 * Off-ramp (docs/decisions/ramp-acceptance.md): amounts, fee and rate come from the quote, so a pricing
 * member (amount, fee, rate, receiveAmount…) is an unknown member, 400. `beneficiarySourceOfFunds` and
 * `senderPhoneNumber` are this service's names for the beneficiary's source of funds and the sender's phone
 * number.
 */
export const offrampBody = z.strictObject({
  transactionId: uuidField,
  walletId: uuidField,
  beneficiaryId: uuidField,
  paymentDestinationId: uuidField,
  quoteId: uuidField,
  sendingAssetCode: assetCodeParam,
  purpose: complianceCode,
  sourceOfFunds: complianceCode,
  beneficiarySourceOfFunds: complianceCode,
  senderPhoneNumber: z.optional(
    z.string().check(z.regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number, e.g. +27821234567')),
  ),
  ...references,
  notifyEmail: notifyFlag,
  notifyWhatsApp: notifyFlag,
});

export type Offramp = z.infer<typeof offrampBody>;

/**
 * On-ramp (docs/decisions/ramp-acceptance.md): the caller's wallet receives; `senderId` is the paying
 * counterparty.
 */
export const onrampBody = z.strictObject({
  transactionId: uuidField,
  walletId: uuidField,
  senderId: uuidField,
  paymentDestinationId: uuidField,
  quoteId: uuidField,
  purpose: complianceCode,
  senderSourceOfFunds: complianceCode,
  senderIdCountryIsoCode: z.optional(
    z.pipe(
      z.string().check(z.regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code (two letters)')),
      z.transform((v: string) => v.toUpperCase()),
    ),
  ),
  receiverSourceOfFunds: complianceCode,
  ...references,
  notifyEmail: notifyFlag,
  notifyWhatsApp: notifyFlag,
});

export type Onramp = z.infer<typeof onrampBody>;
export type P2pOwn = z.infer<typeof p2pOwnBody>;
export type SwapOwn = z.infer<typeof swapOwnBody>;
export type P2pBeneficiary = z.infer<typeof p2pBeneficiaryBody>;
export type SwapBeneficiary = z.infer<typeof swapBeneficiaryBody>;
export type P2pOwnMulti = z.infer<typeof p2pOwnMultiBody>;

export const transactionIdParams = z.strictObject({ transactionId: uuidField });

/**
 * Every status and type the contract names and every one this service records (`p2p_multi`):
 * the list filters on each, and one that no record holds yet (a refund, an off-ramp) is an empty page.
 */
export const transactionStatuses = [
  'initiated',
  'processing',
  'completed',
  'failed',
  'refund_completed',
] as const;
export const transactionTypes = ['p2p', 'swap', 'p2p_multi', 'offramp', 'onramp', 'provider_onramp'] as const;

const createdBound = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' });

export const listTransactionsQuery = z
  .strictObject({
    ...pageQueryShape,
    status: z.optional(z.enum(transactionStatuses)),
    type: z.optional(z.enum(transactionTypes)),
    walletId: z.optional(uuidField),
    createdFrom: z.optional(createdBound),
    createdTo: z.optional(createdBound),
  })
  .check(
    z.superRefine((query, ctx) => {
      if (
        query.createdFrom &&
        query.createdTo &&
        Date.parse(query.createdFrom) >= Date.parse(query.createdTo)
      )
        ctx.addIssue({ code: 'custom', path: ['createdTo'], message: 'must be later than createdFrom' });
    }),
  );
export type ListTransactionsQuery = z.infer<typeof listTransactionsQuery>;
