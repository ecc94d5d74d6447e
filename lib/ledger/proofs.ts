// What the ledger can prove about an intent's envelopes, each proof from answers that cannot disagree
// with one another (design convention 9; issue #7's review of submit.ts):
//
// - found: a transaction with one of the intent's hashes (outer or inner, of any envelope ever built) is
//   in a closed ledger. Its result is the intent's outcome.
// - expired: every look-up answered 404 from a Horizon that had ingested ledger N (its Latest-Ledger
//   header), and ledger N closed after the envelope's maxTime. The envelope is in no ledger up to N and
//   can enter none after it. Ledger time, never the worker's clock, decides.
// - superseded: the source account's own history (one answer) shows the transaction that consumed the
//   envelope's sequence number, and it is not one of the intent's. The envelope can never land.
//
// Horizon is read with fetch (JSON and headers), not the SDK, because the proofs need the headers.
import { config } from '../config.ts';
import type { Environment } from '../http/types.ts';
import { LedgerUnavailableError } from './errors.ts';
import { ledgerNetwork } from './network.ts';

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

async function horizonGet(environment: Environment, path: string): Promise<Response> {
  const { horizonUrl } = ledgerNetwork(environment);
  let response: Response;
  try {
    response = await fetch(new URL(path, horizonUrl.endsWith('/') ? horizonUrl : `${horizonUrl}/`), {
      headers: { Accept: 'application/json' },
      signal: AbortSignal.timeout(config().LEDGER_TIMEOUT_MS),
    });
  } catch (error) {
    throw new LedgerUnavailableError(`The ledger could not be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (response.status !== 200 && response.status !== 404) {
    await response.body?.cancel();
    throw new LedgerUnavailableError(`The ledger answered ${response.status} to ${path}`);
  }
  return response;
}

const latestLedgerOf = (response: Response): number | null => {
  const value = Number(response.headers.get('Latest-Ledger'));
  return Number.isSafeInteger(value) && value > 0 ? value : null;
};

export type LookUp =
  | { found: LedgerTransaction }
  /** None found; `ingestedUpTo` is the lowest Latest-Ledger among the answers (null if one had none). */
  | { found: null; ingestedUpTo: number | null };

/** Looks every hash up; the first found wins. */
export async function lookUpHashes(environment: Environment, hashes: string[]): Promise<LookUp> {
  let ingestedUpTo: number | null = Number.POSITIVE_INFINITY;
  for (const hash of new Set(hashes)) {
    const response = await horizonGet(environment, `transactions/${hash}`);
    if (response.status === 200)
      return { found: transactionOf((await response.json()) as HorizonTransaction) };
    await response.body?.cancel();
    const latest = latestLedgerOf(response);
    ingestedUpTo = latest === null || ingestedUpTo === null ? null : Math.min(ingestedUpTo, latest);
  }
  return { found: null, ingestedUpTo: ingestedUpTo === Number.POSITIVE_INFINITY ? null : ingestedUpTo };
}

/** When ledger `sequence` closed (epoch seconds), or null if this Horizon does not know it yet. */
export async function ledgerClosedAt(environment: Environment, sequence: number): Promise<number | null> {
  const response = await horizonGet(environment, `ledgers/${sequence}`);
  if (response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  const { closed_at } = (await response.json()) as { closed_at: string };
  return Math.floor(Date.parse(closed_at) / 1000);
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
  const response = await horizonGet(environment, `accounts/${source}/transactions?order=desc&limit=200`);
  if (response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  const page = (await response.json()) as { _embedded?: { records?: HorizonTransaction[] } };
  const match = page._embedded?.records?.find(
    (tx) => tx.source_account === source && tx.source_account_sequence === sequence,
  );
  return match ? transactionOf(match) : null;
}
