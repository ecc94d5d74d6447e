// What the read endpoints see: the ledger as far as this Horizon has ingested it. Normally that is
// everything; with an ingest delay it is the ledgers (and, separately, the accounts) visible so far.
import type { EffectRecord, History, OperationRecord, TransactionRecord } from './history.ts';
import type { Ingestion } from './ingestion.ts';
import type { Ledger } from './ledger.ts';
import type { Account, Entries, LedgerHeader, LedgerState } from './state.ts';

export interface StateView {
  readonly headers: readonly LedgerHeader[];
  readonly latest: LedgerHeader;
  readonly baseFee: bigint;
  readonly baseReserve: bigint;
  readonly totalCoins: bigint;
  readonly entries: Entries;
  account(id: string): Account | undefined;
}

export interface HistoryView {
  readonly transactions: readonly TransactionRecord[];
  readonly operations: readonly OperationRecord[];
  readonly effects: readonly EffectRecord[];
  transaction(hash: string): TransactionRecord | undefined;
  operation(id: bigint): OperationRecord | undefined;
}

export interface LedgerView {
  networkPassphrase: string;
  state: StateView;
  history: HistoryView;
  /** The newest ledger closed, ingested or not (Horizon's core_latest_ledger). */
  coreLatest: number;
}

function stateAt(state: LedgerState, sequence: number, entries: Entries): StateView {
  const headers = state.headers.slice(0, sequence);
  const latest = headers.at(-1) ?? state.latest;
  return {
    headers,
    latest,
    baseFee: state.baseFee,
    baseReserve: state.baseReserve,
    totalCoins: state.totalCoins,
    entries,
    account: (id) => entries.accounts.get(id),
  };
}

function historyUpTo(history: History, sequence: number): HistoryView {
  const visible = <T>(record: T | undefined, ledgerOf: (r: T) => number) =>
    record && ledgerOf(record) <= sequence ? record : undefined;
  return {
    transactions: history.transactions.filter((r) => r.ledger <= sequence),
    operations: history.operations.filter((r) => r.transaction.ledger <= sequence),
    effects: history.effects.filter((r) => r.operation.transaction.ledger <= sequence),
    transaction: (hash) => visible(history.transaction(hash), (r) => r.ledger),
    operation: (id) => visible(history.operation(id), (r) => r.transaction.ledger),
  };
}

export function viewOf(ledger: Ledger, ingestion: Ingestion, nowMs: number): LedgerView {
  const { state, history } = ledger;
  const latest = state.latest.sequence;
  const historySequence = ingestion.historyLedger(nowMs);
  const entries = ingestion.entries(state, nowMs);
  const caughtUp = historySequence >= latest && entries === state.entries;
  return {
    networkPassphrase: ledger.networkPassphrase,
    state: caughtUp ? state : stateAt(state, historySequence, entries),
    history: historySequence >= latest ? history : historyUpTo(history, historySequence),
    coreLatest: latest,
  };
}
