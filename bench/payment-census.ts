// After a payment burst, the ledger against the records: every payment the burst's wallets sent is read
// from Horizon (all pages, bench/burst-census.ts) and tied to the API payment it belongs to by its
// transaction's text memo, which the bench gave each payment (`memo` of POST /payments/p2p/own); the
// records are read from the table. Nothing here trusts what the records say about the ledger.
import type { TransactionRecord } from '../lib/payments/repo.ts';

/** A payment the API accepted: its record and the memo its ledger transaction carries. */
export interface AcceptedPayment {
  transactionRecordId: string;
  memo: string;
}

export interface PaymentCensus {
  /** Accepted payments with exactly one payment on the ledger. */
  paidOnce: number;
  /** Accepted payments with more than one payment on the ledger. */
  landedTwice: number;
  /** Payments the wallets sent on the ledger whose memo is no accepted payment's. */
  stray: number;
  /** Records `completed` with no payment of theirs on the ledger. */
  completedNotOnLedger: number;
  /** Records `failed` with a payment of theirs on the ledger. */
  failedOnLedger: number;
  /** Records still `initiated` when the bench stopped waiting. */
  stillInitiated: number;
  /** Accepted (202) payments with no record. */
  noRecord: number;
  /** Records `completed` with one payment on the ledger, whose stellarTxHash names another transaction. */
  misnamed: number;
  /** landedTwice + stray: must be 0. */
  doubled: number;
  /** completedNotOnLedger + failedOnLedger + stillInitiated + noRecord: must be 0. */
  lost: number;
}

export function paymentCensus(
  payments: readonly AcceptedPayment[],
  records: ReadonlyMap<string, TransactionRecord>,
  byMemo: ReadonlyMap<string, string[]>,
): PaymentCensus {
  const census = {
    paidOnce: 0,
    landedTwice: 0,
    stray: 0,
    completedNotOnLedger: 0,
    failedOnLedger: 0,
    stillInitiated: 0,
    noRecord: 0,
    misnamed: 0,
  };
  const known = new Set(payments.map((p) => p.memo));
  for (const [memo, hashes] of byMemo) if (!known.has(memo)) census.stray += hashes.length;
  for (const { transactionRecordId, memo } of payments) {
    const onLedger = byMemo.get(memo) ?? [];
    const record = records.get(transactionRecordId);
    if (onLedger.length === 1) census.paidOnce++;
    if (onLedger.length > 1) census.landedTwice++;
    if (!record) census.noRecord++;
    else if (record.status === 'initiated') census.stillInitiated++;
    else if (record.status === 'completed' && onLedger.length === 0) census.completedNotOnLedger++;
    else if (record.status === 'failed' && onLedger.length > 0) census.failedOnLedger++;
    else if (record.status === 'completed' && onLedger.length === 1 && record.stellarTxHash !== onLedger[0])
      census.misnamed++;
  }
  return {
    ...census,
    doubled: census.landedTwice + census.stray,
    lost: census.completedNotOnLedger + census.failedOnLedger + census.stillInitiated + census.noRecord,
  };
}
