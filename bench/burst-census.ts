// The check that matters after a burst, from the ledger itself: how many payments each intent put on it.
// Every account's payments are read from Horizon with paging, and each one is tied to its intent by the
// text memo of its transaction (the intent id), never by what the submission records say.
import type { SubmissionRecord } from '../lib/ledger/submissions.ts';

interface Page<T> {
  _embedded: { records: T[] };
}

interface PaymentRecord {
  type: string;
  from?: string;
  paging_token: string;
  transaction_hash: string;
}

interface TransactionRecord {
  hash: string;
  memo_type: string;
  memo?: string;
  paging_token: string;
}

const PAGE = 200;

/** Every record of a Horizon collection (of transactions, successful ones only: Horizon's default), oldest first. */
export async function readAll<T extends { paging_token: string }>(
  horizonUrl: string,
  path: string,
): Promise<T[]> {
  const records: T[] = [];
  let cursor = '';
  for (;;) {
    const url = `${horizonUrl}${path}?order=asc&limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`;
    const response = await fetch(url, { headers: { accept: 'application/json' } });
    if (response.status !== 200) throw new Error(`ledger count: GET ${path} answered ${response.status}`);
    const page = ((await response.json()) as Page<T>)._embedded.records;
    records.push(...page);
    if (page.length < PAGE) return records;
    cursor = (page.at(-1) as T).paging_token;
  }
}

/** The transaction hashes of the ledger's payments, by the memo of their transaction. */
export async function ledgerPaymentsByMemo(
  horizonUrl: string,
  accounts: string[],
): Promise<Map<string, string[]>> {
  const byMemo = new Map<string, string[]>();
  for (const account of accounts) {
    // Payments first, their transactions after: a payment that lands between the two reads is then
    // either missed by both or found with its transaction, never taken for a payment of no intent.
    const payments = await readAll<PaymentRecord>(horizonUrl, `/accounts/${account}/payments`);
    const memos = new Map<string, string>();
    for (const tx of await readAll<TransactionRecord>(horizonUrl, `/accounts/${account}/transactions`)) {
      memos.set(tx.hash, tx.memo_type === 'text' ? (tx.memo ?? '') : `(${tx.memo_type} memo)`);
    }
    // Each payment counted once: under the account that sent it.
    for (const payment of payments) {
      if (payment.type !== 'payment' || payment.from !== account) continue;
      const memo = memos.get(payment.transaction_hash) ?? '(transaction not found)';
      byMemo.set(memo, [...(byMemo.get(memo) ?? []), payment.transaction_hash]);
    }
  }
  return byMemo;
}

export interface Census {
  /** Intents with one payment on the ledger. */
  paidOnce: number;
  /** Intents with more than one payment on the ledger. */
  doubled: number;
  /** Recorded failed with a payment on the ledger (paid, and told it was not). */
  lost: number;
  /** Recorded succeeded with no payment on the ledger (told it was paid, and it was not). */
  falseCompleted: number;
  /** Recorded succeeded with one payment on the ledger, but the record names another transaction. */
  misnamed: number;
  /** Payments between the accounts whose memo is no intent of the run. */
  stray: number;
}

/** Compares each intent's record with what the ledger holds for it. */
export function census(
  intentIds: string[],
  records: Map<string, SubmissionRecord | undefined>,
  byMemo: Map<string, string[]>,
): Census {
  const result: Census = { paidOnce: 0, doubled: 0, lost: 0, falseCompleted: 0, misnamed: 0, stray: 0 };
  const known = new Set(intentIds);
  for (const [memo, hashes] of byMemo) if (!known.has(memo)) result.stray += hashes.length;
  for (const intentId of intentIds) {
    const onLedger = byMemo.get(intentId) ?? [];
    const record = records.get(intentId);
    if (onLedger.length === 1) result.paidOnce++;
    if (onLedger.length > 1) result.doubled++;
    if (record?.status === 'succeeded' && onLedger.length === 0) result.falseCompleted++;
    if (record?.status === 'failed' && onLedger.length > 0) result.lost++;
    if (record?.status === 'succeeded' && onLedger.length === 1 && record.hash !== onLedger[0]) {
      result.misnamed++;
    }
  }
  return result;
}
