// A record's history: one compact entry per move, appended by the move's own conditional write
// (apply.ts), so keeping it costs no call and no write of its own, only the entry's few dozen bytes on
// the record. Names are one letter and times epoch milliseconds because every byte of the record is
// paid for at each of its writes. The hash of a ledger transaction is not repeated: the record holds it
// (stellarTxHash, an off-ramp's refundTxHash). The timeline the API answers is drawn from it
// (lib/payments/timeline.ts). The entry's shape is the record's (repo.ts HistoryEntry).
import type { HistoryEntry, TransactionRecord } from '../repo.ts';
import type { EventType, Move } from './machine.ts';

/** What the ledger said of the transaction an event reports: kept in the history, not on the record. */
export interface LedgerFacts {
  ledger: number | null;
  /** Stroops, as the ledger's result has it. */
  feeCharged: string | null;
}

/** The ledger facts of a submission that succeeded (lib/ledger/submit.ts). */
export const ledgerFactsOf = (outcome: { ledger: number | null; feeCharged?: string }): LedgerFacts => ({
  ledger: outcome.ledger,
  feeCharged: outcome.feeCharged ?? null,
});

/**
 * The entry a move appends, or none: a move that stays in its state on the same event as the last
 * entry (a provider repeating `processing`, an owed payment refused again) adds nothing the record
 * does not say (its owedAttempt and owedRefusal count and explain those), and the history stays bounded.
 */
export function entryOf(
  record: TransactionRecord,
  move: Move<string>,
  event: { type: EventType; facts?: Record<string, unknown>; ledger?: LedgerFacts | undefined },
  from: string,
  at: Date,
): HistoryEntry | null {
  const last = record.history?.at(-1);
  if (move.to === from && last?.e === event.type) return null;
  // The table's own code, or the ledger's when it refused the record's transaction.
  const errorCode = move.error?.code ?? event.facts?.errorCode;
  return {
    t: at.getTime(),
    s: move.to,
    e: event.type,
    ...(event.ledger?.ledger != null ? { l: event.ledger.ledger } : {}),
    ...(event.ledger?.feeCharged != null ? { f: Number(event.ledger.feeCharged) } : {}),
    ...(typeof errorCode === 'string' ? { c: errorCode } : {}),
  };
}
