// What the payment and transaction routes answer (docs/decisions/transaction-records.md): the acceptance of a
// submission and the transaction record. Every member of the record is present (null when it does not apply),
// so integrators read one shape whatever the payment type; only `legs` is absent from every record but a
// multi-transfer's, as the contract has it.
//
// The figures say what happened: sendAmount is what the payment asked to move, whatever became of it;
// receiveAmount and exchangeRate are what the ledger delivered, so they are null while the record is
// initiated and stay null on a failed one (nothing was received, nothing was converted).
import { exactNumber, type OnTheWire } from '../http/plain-json.ts';
import { pageOf } from '../http/responses.ts';
import * as z from '../zod.ts';
import type { TransactionRecord } from './repo.ts';
import { transactionStatuses, transactionTypes } from './schema.ts';
import { timelineStep } from './timeline.ts';

const stellarAccount = z.string().check(z.regex(/^[GM][A-Z2-7]{55,68}$/, 'must be a ledger address'));
const timestamp = z.iso.datetime();
const amount = z
  .number()
  .check(
    z.describe('Exact to the ledger’s 7 decimal places, written in plain decimals (0.0000001, never 1e-7).'),
  );

export const paymentAcceptance = z.strictObject({
  transactionRecordId: z.uuid().check(z.describe('Read it with `GET /transactions/{transactionId}`.')),
  status: z.literal('accepted').check(z.describe('Accepted for execution; not a transaction status.')),
  intentId: z.string().check(z.describe('The ledger execution intent of the record.')),
  isIdempotent: z
    .boolean()
    .check(
      z.describe('true when this answers a replay of an earlier submission with the same transactionId.'),
    ),
  message: z.string(),
});

const leg = z.strictObject({
  legIndex: z.number().check(z.int()),
  walletId: z.uuid(),
  walletPublicKey: stellarAccount,
  destinationWalletId: z.uuid(),
  destinationStellarAddress: stellarAccount,
  sendingAsset: z.string(),
  amount,
});

export const transactionResource = z.strictObject({
  transactionRecordId: z.uuid(),
  status: z.enum(transactionStatuses),
  type: z.enum(transactionTypes),
  idempotencyKey: z.string().check(z.describe('The caller’s transactionId.')),
  intentId: z.string(),
  isP2pTransfer: z.boolean(),
  sendAmount: amount.check(
    z.describe(
      'What the payment asks to move, whatever its status; for a multi-transfer, the gross sum of its legs.',
    ),
  ),
  sendCurrency: z.string(),
  originalSendAmount: amount.check(
    z.describe(
      'The source wallet’s debit in sendingAsset, made when the record completes; a failed record shows the debit asked for, and nothing was debited.',
    ),
  ),
  receiveAmount: z
    .nullable(amount)
    .check(
      z.describe(
        'What the ledger delivered: null while the record is initiated, and on a failed record, which received nothing.',
      ),
    ),
  receiveCurrency: z.string(),
  fee: amount,
  feeCurrency: z.string(),
  exchangeRate: z
    .nullable(z.number())
    .check(
      z.describe(
        'receiveAmount / sendAmount once the record completes (1 for P2P); null while initiated and on a failed record.',
      ),
    ),
  minReceiveAmount: z.optional(
    amount.check(
      z.describe(
        'Swaps only: the least the destination receives, in receivingAsset — the best path’s amount when the swap was accepted less the slippage. A swap the ledger would pay less (the price moved while it waited) fails with LEDGER_OP_UNDER_DEST_MIN.',
      ),
    ),
  ),
  sendingAsset: z.string(),
  receivingAsset: z.string(),
  walletId: z.nullable(z.uuid()),
  walletPublicKey: z.nullable(stellarAccount),
  destinationWalletId: z.nullable(z.uuid()),
  destinationStellarAddress: z.nullable(stellarAccount),
  beneficiaryId: z.nullable(z.uuid()),
  beneficiaryFirstName: z.nullable(z.string()),
  beneficiaryLastName: z.nullable(z.string()),
  paymentDestinationId: z.nullable(z.uuid()),
  connectorId: z.nullable(z.string()).check(z.describe('Ramps: the connector; null on P2P and swaps.')),
  connectorName: z.nullable(z.string()),
  method: z.nullable(z.string()).check(z.describe('Ramps: the connector’s method (BANK, MOMO, CASH).')),
  destinationCountryIso: z.nullable(z.string()),
  quoteId: z.nullable(z.uuid()),
  externalReference: z
    .nullable(z.string())
    .check(z.describe('Ramps: the provider’s reference for the instruction, once it has it.')),
  refundTxHash: z.optional(
    z
      .nullable(z.string())
      .check(z.describe('Off-ramps: the ledger transaction that paid the wallet back (refund_completed).')),
  ),
  fromRef: z.nullable(z.string()),
  toRef: z.nullable(z.string()),
  memo: z.nullable(z.string()),
  notification: z
    .nullable(
      z.strictObject({
        channel: z.enum(['email', 'whatsapp']),
        to: z.string().check(z.describe('Masked.')),
        status: z
          .enum(['pending', 'sent', 'bounced', 'failed', 'skipped'])
          .check(
            z.describe(
              '`pending` until the payment completes and the notice is handled (within seconds, off the ' +
                'request path); `sent`: handed to the channel (SES, WhatsApp); `bounced`: the address ' +
                'bounced or complained after; `failed`: the channel failed every retry (the payment is ' +
                'completed regardless); `skipped`: not sent, `reason` says why (an address that bounced ' +
                'before, or a channel not configured).',
            ),
          ),
        sentAt: z.nullable(timestamp).check(z.describe('When the channel took the notice; null until then.')),
        reason: z.nullable(z.string()).check(z.describe('Why it was skipped, failed or bounced; else null.')),
      }),
    )
    .check(
      z.describe(
        'The beneficiary notice (notifyEmail / notifyWhatsApp): sent once when the payment completes ' +
          '(an off-ramp: when it is paid out), with the amount, currency, sender and toRef. null when none was asked.',
      ),
    ),
  legs: z
    .optional(z.array(leg))
    .check(
      z.describe('Present on multi-transfer records only, in submitted order; absent from every other.'),
    ),
  stellarTxHash: z.nullable(z.string().check(z.regex(/^[0-9a-f]{64}$/))),
  errorCode: z.nullable(z.string()),
  failureReason: z.nullable(z.string()),
  createdAt: timestamp,
  updatedAt: timestamp,
  completedAt: z.nullable(timestamp),
  timeline: z
    .optional(z.array(timelineStep))
    .check(
      z.describe(
        'Every state change with its time, oldest first: `accepted`, then each move of the record’s lifecycle (the event that moved it, the state and status it reached, an errorCode it wrote), a move a ledger transaction made with its hash, ledger and network fee. Present when one record is read (`GET /transactions/{transactionId}`); absent from lists and from webhook events, whose `data` is the record as it stood at that change. A record accepted before timelines were kept shows its acceptance and where it stands now.',
      ),
    ),
});

export const transactionPage = pageOf(transactionResource);

const number = (decimal: string | null) => (decimal === null ? null : exactNumber(decimal));

/** Shows an email or phone number as `j***@example.com` / `+27******4567`. */
function masked(to: string): string {
  const at = to.indexOf('@');
  if (at > 0) return `${to[0]}***${to.slice(at)}`;
  return `${to.slice(0, 3)}${'*'.repeat(Math.max(0, to.length - 7))}${to.slice(-4)}`;
}

export function toTransactionResource(
  record: TransactionRecord,
): OnTheWire<z.infer<typeof transactionResource>> {
  return {
    transactionRecordId: record.transactionRecordId,
    status: record.status,
    type: record.transactionType,
    idempotencyKey: record.idempotencyKey,
    intentId: record.intentId,
    isP2pTransfer: !record.ramp,
    sendAmount: exactNumber(record.sendAmount),
    sendCurrency: record.sendingAsset.code,
    originalSendAmount: exactNumber(record.originalSendAmount),
    receiveAmount: number(record.receiveAmount),
    receiveCurrency: record.receivingAsset.code,
    fee: exactNumber(record.fee),
    feeCurrency: record.sendingAsset.code,
    exchangeRate: number(record.exchangeRate),
    ...(record.minReceiveAmount ? { minReceiveAmount: exactNumber(record.minReceiveAmount) } : {}),
    sendingAsset: record.sendingAsset.code,
    receivingAsset: record.receivingAsset.code,
    walletId: record.walletId,
    walletPublicKey: record.walletPublicKey,
    destinationWalletId: record.destinationWalletId,
    destinationStellarAddress: record.destinationStellarAddress,
    beneficiaryId: record.beneficiaryId,
    beneficiaryFirstName: record.beneficiaryFirstName,
    beneficiaryLastName: record.beneficiaryLastName,
    paymentDestinationId: record.paymentDestinationId,
    connectorId: record.ramp?.connectorId ?? null,
    connectorName: record.ramp?.connectorName ?? null,
    method: record.ramp?.method ?? null,
    destinationCountryIso: record.ramp?.destinationCountryIso ?? null,
    quoteId: record.ramp?.quoteId ?? null,
    externalReference: record.externalReference ?? null,
    ...(record.ramp ? { refundTxHash: record.refundTxHash ?? null } : {}),
    fromRef: record.fromRef,
    toRef: record.toRef,
    memo: record.memo,
    notification: record.notify
      ? {
          channel: record.notify.channel,
          to: masked(record.notify.to),
          status: record.notification?.status ?? 'pending',
          sentAt: record.notification?.sentAt ?? null,
          reason: record.notification?.reason ?? null,
        }
      : null,
    ...(record.legs
      ? {
          legs: record.legs.map((l) => ({
            legIndex: l.legIndex,
            walletId: l.walletId,
            walletPublicKey: l.walletPublicKey,
            destinationWalletId: l.destinationWalletId,
            destinationStellarAddress: l.destinationStellarAddress,
            sendingAsset: l.sendingAsset.code,
            amount: exactNumber(l.amount),
          })),
        }
      : {}),
    stellarTxHash: record.stellarTxHash,
    errorCode: record.errorCode,
    failureReason: record.failureReason,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    completedAt: record.completedAt,
  };
}

export const acceptanceExample = {
  transactionRecordId: '6f1c2a4e-3b1d-5c8e-9f20-7a3b4c5d6e7f',
  status: 'accepted',
  intentId: 'payment:6f1c2a4e-3b1d-5c8e-9f20-7a3b4c5d6e7f',
  isIdempotent: false,
  message: 'Payment accepted; it settles on the ledger within seconds. Read its record for the outcome.',
};

export const transactionExample: z.infer<typeof transactionResource> = {
  transactionRecordId: acceptanceExample.transactionRecordId,
  status: 'completed',
  type: 'swap',
  idempotencyKey: '0b6e7f0a-8c1d-4f3e-9a2b-5c6d7e8f9a0b',
  intentId: acceptanceExample.intentId,
  isP2pTransfer: true,
  sendAmount: 100,
  sendCurrency: 'USDC',
  originalSendAmount: 100,
  receiveAmount: 92.3716543,
  receiveCurrency: 'EURC',
  fee: 0,
  feeCurrency: 'USDC',
  exchangeRate: 0.9237165,
  sendingAsset: 'USDC',
  receivingAsset: 'EURC',
  walletId: '3c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f',
  walletPublicKey: 'GBZXN7PIRZGNMHGA7MUUUF4GWPY5AYPV6LY4UV2GL6VJGIQRXFDNMADI',
  destinationWalletId: '3c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f',
  destinationStellarAddress: 'GBZXN7PIRZGNMHGA7MUUUF4GWPY5AYPV6LY4UV2GL6VJGIQRXFDNMADI',
  beneficiaryId: null,
  beneficiaryFirstName: null,
  beneficiaryLastName: null,
  paymentDestinationId: null,
  connectorId: null,
  connectorName: null,
  method: null,
  destinationCountryIso: null,
  quoteId: null,
  externalReference: null,
  fromRef: 'INV-2041',
  toRef: null,
  memo: null,
  notification: null,
  stellarTxHash: 'b4d0e5f3c2a1908f7e6d5c4b3a2918f7e6d5c4b3a2918f7e6d5c4b3a2918f7e6',
  errorCode: null,
  failureReason: null,
  createdAt: '2026-11-23T09:30:00.000Z',
  updatedAt: '2026-11-23T09:30:04.512Z',
  completedAt: '2026-11-23T09:30:04.512Z',
};

/** The same record read alone: with its timeline. */
export const readTransactionExample: z.infer<typeof transactionResource> = {
  ...transactionExample,
  timeline: [
    {
      at: transactionExample.createdAt,
      event: 'accepted',
      state: 'initiated',
      status: 'initiated',
      errorCode: null,
      ledgerTransaction: null,
    },
    {
      at: transactionExample.updatedAt,
      event: 'ledger_landed',
      state: 'completed',
      status: 'completed',
      errorCode: null,
      ledgerTransaction: { hash: transactionExample.stellarTxHash, ledger: 1284603, fee: 0.00002 },
    },
  ],
};

/** What the sandbox ramp helpers answer (ramps/sandbox.ts). */
export const rampOutcomeResource = z.strictObject({
  transactionRecordId: z.uuid(),
  outcome: z.enum(['complete', 'fail', 'return']),
  providerStatus: z.string().check(z.describe('The instruction’s state at the provider now.')),
  message: z.string(),
});

export const rampOutcomeExample = {
  transactionRecordId: '6f1c2a4e-3b1d-5c8e-9f20-7a3b4c5d6e7f',
  outcome: 'fail',
  providerStatus: 'failed',
  message: 'Asked of the provider; its notification moves the record within moments.',
};
