// What the ledger can prove about an intent's envelopes, each proof from answers that cannot disagree
// with one another (design convention 9; docs/decisions/ledger-outcomes.md):
//
// - found: a transaction with one of the intent's hashes (outer or inner, of any envelope ever built) is
//   in a closed ledger. Its result is the intent's outcome.
// - expired: every look-up answered 404 from a Horizon that had ingested ledger N (its Latest-Ledger
//   header), and ledger N closed after the envelope's maxTime. The envelope is in no ledger up to N and
//   can enter none after it. Ledger time, never the worker's clock, decides.
// - superseded: the source account's own history (one answer) shows the transaction that consumed the
//   envelope's sequence number, and it is not one of the intent's. The envelope can never land.
//
// Horizon is read with fetch (horizon-json.ts), not the SDK, because the proofs need its headers.
import type { Environment } from '../tenant.ts';
import { type HorizonPage, horizonFetch, horizonGet } from './horizon-json.ts';

const FAILURE = 'The ledger could not be read';

export interface LedgerTransaction {
  /** The hash the ledger lists it under (a fee bump's outer hash). */
  hash: string;
  innerHash: string | null;
  successful: boolean;
  ledger: number | null;
  resultXdr: string | undefined;
  sourceAccountSequence: string | undefined;
}

interface HorizonTransaction {
  hash: string;
  source_account?: string;
  successful: boolean;
  ledger?: number;
  result_xdr?: string;
  source_account_sequence?: string;
  fee_bump_transaction?: { hash: string };
  inner_transaction?: { hash: string };
}

const transactionOf = (tx: HorizonTransaction): LedgerTransaction => ({
  hash: tx.fee_bump_transaction?.hash ?? tx.hash,
  innerHash: tx.inner_transaction?.hash ?? null,
  successful: tx.successful,
  ledger: tx.ledger ?? null,
  resultXdr: tx.result_xdr,
  sourceAccountSequence: tx.source_account_sequence,
});

export type LookUp =
  | { found: LedgerTransaction }
  /** None found; `ingestedUpTo` is the lowest Latest-Ledger among the answers (null if one had none). */
  | { found: null; ingestedUpTo: number | null };

/** Looks every hash up; the first found wins. */
export async function lookUpHashes(environment: Environment, hashes: string[]): Promise<LookUp> {
  let ingestedUpTo: number | null = Number.POSITIVE_INFINITY;
  for (const hash of new Set(hashes)) {
    const answer = await horizonFetch<HorizonTransaction>(environment, ['transactions', hash], {}, FAILURE);
    if (answer.body) return { found: transactionOf(answer.body) };
    const latest = answer.latestLedger;
    ingestedUpTo = latest === null || ingestedUpTo === null ? null : Math.min(ingestedUpTo, latest);
  }
  return { found: null, ingestedUpTo: ingestedUpTo === Number.POSITIVE_INFINITY ? null : ingestedUpTo };
}

/** When ledger `sequence` closed (epoch seconds), or null if this Horizon does not know it yet. */
export async function ledgerClosedAt(environment: Environment, sequence: number): Promise<number | null> {
  const ledger = await horizonGet<{ closed_at: string }>(
    environment,
    ['ledgers', String(sequence)],
    {},
    FAILURE,
  );
  return ledger ? Math.floor(Date.parse(ledger.closed_at) / 1000) : null;
}

/**
 * The transaction of `source` that consumed `sequence`, from the account's own history in one answer
 * (newest first, bounded), or null when that answer does not show it (not consumed yet, or not ingested).
 */
export async function consumerOfSequence(
  environment: Environment,
  source: string,
  sequence: string,
): Promise<LedgerTransaction | null> {
  const page = await horizonGet<HorizonPage<HorizonTransaction>>(
    environment,
    ['accounts', source, 'transactions'],
    { order: 'desc', limit: '200' },
    FAILURE,
  );
  const match = page?._embedded.records.find(
    (tx) => tx.source_account === source && tx.source_account_sequence === sequence,
  );
  return match ? transactionOf(match) : null;
}

/**
 * When the newest ledger this Horizon has ingested closed (epoch seconds), from its root resource: the
 * ledger's own clock, for deciding that an envelope's maxTime has passed. null when it does not say.
 */
export async function latestClosedAt(environment: Environment): Promise<number | null> {
  const root = await horizonGet<{ history_latest_ledger_closed_at?: string }>(environment, [], {}, FAILURE);
  const closedAt = Date.parse(root?.history_latest_ledger_closed_at ?? '');
  return Number.isFinite(closedAt) ? Math.floor(closedAt / 1000) : null;
}
