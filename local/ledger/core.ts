// What stellar-core does for Horizon here: take a submission, decide whether it may enter the next ledger,
// and close ledgers — at once for every accepted transaction (closeIntervalMs 0), or every
// closeIntervalMs with whatever the pending pool holds, empty ledgers included, as the network does.

import type { LedgerClock } from './clock.ts';
import type { Faults } from './faults.ts';
import type { TransactionRecord } from './history.ts';
import { Ingestion } from './ingestion.ts';
import type { Closed, Ledger } from './ledger.ts';
import { Pool } from './pool.ts';
import { type TxOutcome, transactionResultXdr } from './results-xdr.ts';
import type { LedgerHeader } from './state.ts';
import { type DecodedEnvelope, decodeEnvelope, minFee } from './validation.ts';
import { type LedgerView, viewOf } from './view.ts';

export type Submission =
  | { kind: 'malformed'; error: string }
  | { kind: 'rejected'; envelope: DecodedEnvelope; outcome: TxOutcome; resultXdr: string }
  /** In a ledger (now or before); `hash` is the one submitted, which for a fee bump may be the inner hash. */
  | { kind: 'recorded'; hash: string; record: TransactionRecord }
  /** In the pending pool: `settled` gives the answer once the ledger holding it has closed. */
  | { kind: 'pending'; hash: string; settled: Promise<Submission> }
  /** Refused for now: another transaction of the same source account waits for the next ledger. */
  | { kind: 'tryAgainLater'; envelope: DecodedEnvelope; retryAfterMs: number };

function fromClosed(closed: Closed, hash: string): Submission {
  return closed.kind === 'recorded' ? { kind: 'recorded', hash, record: closed.record } : closed;
}

function refusal(envelope: DecodedEnvelope, code: TxOutcome['code'], ledger: Ledger): Submission {
  const operations = envelope.tx.operations.length + (envelope.feeBump ? 1 : 0);
  const outcome: TxOutcome = { feeCharged: minFee(ledger.state, operations), code };
  return { kind: 'rejected', envelope, outcome, resultXdr: transactionResultXdr(outcome) };
}

/** Operations the public network's ledgers take at most (its tx-set limit). */
const PUBLIC_NETWORK_TX_SET_OPERATIONS = 1000;

export class Core {
  readonly pool = new Pool();
  readonly ingestion = new Ingestion();
  private timer: NodeJS.Timeout | undefined;
  /** Real ms at which the next ledger is due to close (cadence only). */
  private nextCloseAtMs = 0;
  private running = false;

  readonly ledger: Ledger;
  readonly clock: LedgerClock;
  readonly faults: Faults;
  readonly closeIntervalMs: number;
  readonly maxTxSetOperations: number;

  constructor(
    ledger: Ledger,
    clock: LedgerClock,
    faults: Faults,
    closeIntervalMs: number,
    maxTxSetOperations = PUBLIC_NETWORK_TX_SET_OPERATIONS,
  ) {
    this.ledger = ledger;
    this.clock = clock;
    this.faults = faults;
    this.closeIntervalMs = closeIntervalMs;
    this.maxTxSetOperations = maxTxSetOperations;
    if (!Number.isSafeInteger(closeIntervalMs) || closeIntervalMs < 0)
      throw new RangeError(`closeIntervalMs must be whole milliseconds, 0 or more, not ${closeIntervalMs}`);
    if (!Number.isSafeInteger(maxTxSetOperations) || maxTxSetOperations < 1)
      throw new RangeError(`maxTxSetOperations must be a whole number above 0, not ${maxTxSetOperations}`);
  }

  start(): void {
    this.running = true;
    this.schedule();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
  }

  /**
   * Takes one envelope. `faults: false` (the friendbot's own submissions) bypasses the injected refusals,
   * which are about what the integrator's submissions meet.
   */
  submit(envelopeXdr: string, options: { faults?: boolean } = {}): Submission {
    let envelope: DecodedEnvelope;
    try {
      envelope = decodeEnvelope(envelopeXdr, this.ledger.networkPassphrase);
    } catch (error) {
      return { kind: 'malformed', error: error instanceof Error ? error.message : String(error) };
    }
    const known = this.ledger.history.transaction(envelope.hash);
    const pending = this.pool.find(envelope.hash);
    if (options.faults !== false) {
      // A busy node judges a resubmission against its own queue, leaving the copy it holds alone.
      const code = this.faults.takeRejection(known !== undefined || pending !== undefined);
      if (code) return refusal(envelope, code, this.ledger);
    }
    // A hash already in a ledger is answered from history and never applied twice (as Horizon does);
    // one already waiting gets the same answer as the first submission (core's DUPLICATE).
    if (known) return { kind: 'recorded', hash: envelope.hash, record: known };
    if (pending)
      return { kind: 'pending', hash: envelope.hash, settled: this.answerOf(pending.settled, envelope.hash) };

    if (this.closeIntervalMs === 0) {
      const closeTime = this.ledger.nextCloseTime(this.clock.nowSeconds());
      const outcome = this.ledger.validate(envelope, closeTime);
      if (outcome) return { kind: 'rejected', envelope, outcome, resultXdr: transactionResultXdr(outcome) };
      const [closed] = this.closeLedger([envelope]).closed;
      if (!closed) throw new Error('a closed ledger lost its transaction');
      return fromClosed(closed, envelope.hash);
    }

    // stellar-core keeps one transaction per source account in its queue; a second one is TRY_AGAIN_LATER.
    if (this.pool.ofSource(envelope.tx.source))
      return { kind: 'tryAgainLater', envelope, retryAfterMs: Math.max(0, this.nextCloseAtMs - Date.now()) };
    // Judged against the ledger it would enter: its expected close time, and the fees already queued.
    const outcome = this.ledger.validate(envelope, this.expectedCloseTime(), (account) =>
      this.pool.feesOwedBy(account),
    );
    if (outcome) return { kind: 'rejected', envelope, outcome, resultXdr: transactionResultXdr(outcome) };
    const added = this.pool.add(envelope);
    return { kind: 'pending', hash: envelope.hash, settled: this.answerOf(added.settled, envelope.hash) };
  }

  /**
   * Closes the next ledger now with the pool, up to the tx-set limit (and `extra` transactions after it);
   * restarts the cadence. What the limit leaves waits for the next close.
   */
  closeLedger(extra: DecodedEnvelope[] = []): { header: LedgerHeader; closed: Closed[] } {
    const state = this.ledger.state;
    this.ingestion.schedule(state, Date.now(), this.faults.ingestDelayMs, this.faults.accountsIngestDelayMs);
    const waiting = this.pool.take(this.maxTxSetOperations);
    const closeTime = this.ledger.nextCloseTime(this.clock.nowSeconds());
    const result = this.ledger.close([...waiting.map((p) => p.envelope), ...extra], closeTime);
    waiting.forEach((pending, index) => {
      const closed = result.closed[index];
      if (closed) pending.settle(closed);
    });
    this.schedule();
    return { header: result.header, closed: result.closed.slice(waiting.length) };
  }

  /** Real ms at which the next ledger is due (cadence only). */
  nextCloseAt(): number {
    return this.nextCloseAtMs;
  }

  /** Every fault off, and every ledger closed so far visible at once. */
  clearFaults(): void {
    this.faults.clear();
    this.ingestion.catchUp();
  }

  /** The close time the pool judges time bounds by: the next scheduled close on the ledger clock. */
  expectedCloseTime(): number {
    return this.ledger.nextCloseTime(this.clock.secondsAt(this.nextCloseAtMs));
  }

  /** The ledger as reads see it now (see ingestion.ts). */
  view(): LedgerView {
    return viewOf(this.ledger, this.ingestion, Date.now());
  }

  /** The newest ledger reads can see: the Latest-Ledger header. */
  latestIngested(): number {
    return Math.min(this.ingestion.historyLedger(Date.now()), this.ledger.state.latest.sequence);
  }

  private answerOf(settled: Promise<Closed>, hash: string): Promise<Submission> {
    return settled.then((closed) => fromClosed(closed, hash));
  }

  /** The next close an interval from now, or at `dueMs` (never in the past). */
  private schedule(dueMs = Date.now() + this.closeIntervalMs): void {
    clearTimeout(this.timer);
    if (!this.running || this.closeIntervalMs === 0) return;
    this.nextCloseAtMs = Math.max(dueMs, Date.now());
    this.timer = setTimeout(() => {
      const due = this.nextCloseAtMs;
      try {
        this.closeLedger();
      } catch (error) {
        // A bug in one close must not stop the cadence: every waiting submission would hang.
        console.error('[local-ledger] ledger close failed', error);
      }
      // The network keeps its cadence whatever a close costs: the next is due an interval after this one
      // was, not after this one finished (a close of hundreds of transactions would stretch every interval).
      this.schedule(due + this.closeIntervalMs);
    }, this.nextCloseAtMs - Date.now());
    // The server keeps the process alive while it runs; the cadence alone should not.
    this.timer.unref();
  }
}
