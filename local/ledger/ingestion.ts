// When each closed ledger becomes visible to reads. A Horizon replica that has not ingested the latest
// ledgers serves older history, an older Latest-Ledger, and (separately, for the split-read hazard) older
// accounts, while the node already validates against the newest state. Off by default: every ledger is
// visible once it closes.
import { type Entries, forkEntries, type LedgerState } from './state.ts';

/** Highest ledger sequence whose visibility time has come; times are non-decreasing (ingestion is in order). */
function visibleUpTo(times: number[], nowMs: number): number {
  let index = times.length - 1;
  while (index > 0 && (times[index] ?? 0) > nowMs) index -= 1;
  return index + 1;
}

export class Ingestion {
  /** Real ms at which ledger `index + 1` becomes visible; genesis always is. */
  private readonly history: number[] = [0];
  private readonly accounts: number[] = [0];
  /** Accounts and pools as ledger N left them, kept while N may be the newest one readers see. */
  private readonly snapshots = new Map<number, Entries>();

  /**
   * Call just before the next ledger changes the state: records when that ledger becomes visible and,
   * if readers must go on seeing the current accounts for a while, keeps a copy of them.
   */
  schedule(state: LedgerState, nowMs: number, historyDelayMs: number, accountsDelayMs: number): void {
    const historyAt = Math.max(this.history.at(-1) ?? 0, nowMs + historyDelayMs);
    const accountsAt = Math.max(this.accounts.at(-1) ?? 0, nowMs + accountsDelayMs);
    const current = state.latest.sequence;
    if (accountsAt > nowMs && !this.snapshots.has(current))
      this.snapshots.set(current, forkEntries(state.entries));
    this.history.push(historyAt);
    this.accounts.push(accountsAt);
  }

  /** Everything closed so far becomes visible now (the faults were cleared). */
  catchUp(): void {
    this.history.fill(0);
    this.accounts.fill(0);
    this.snapshots.clear();
  }

  historyLedger(nowMs: number): number {
    return visibleUpTo(this.history, nowMs);
  }

  accountsLedger(nowMs: number): number {
    return visibleUpTo(this.accounts, nowMs);
  }

  /** The accounts and pools readers see at `nowMs`. */
  entries(state: LedgerState, nowMs: number): Entries {
    const sequence = this.accountsLedger(nowMs);
    for (const kept of this.snapshots.keys()) if (kept < sequence) this.snapshots.delete(kept);
    if (sequence >= state.latest.sequence) return state.entries;
    const snapshot = this.snapshots.get(sequence);
    if (!snapshot) throw new Error(`no accounts snapshot for ledger ${sequence}`);
    return snapshot;
  }
}
