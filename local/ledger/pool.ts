// The pending pool of a ledger that closes on a cadence: accepted transactions in arrival order, waiting for
// the next close. Like stellar-core's queue it holds at most one transaction per source account, and
// counts what each fee source already owes, so a new submission is judged against state + pool. A close
// takes what fits in the ledger's operation limit; the rest waits for the next one.
import type { Closed } from './ledger.ts';
import type { DecodedEnvelope } from './validation.ts';

export interface Pending {
  envelope: DecodedEnvelope;
  /** Settles when the ledger that held it closes: recorded, or rejected if it was no longer valid then. */
  settled: Promise<Closed>;
  settle(closed: Closed): void;
}

/** The most a transaction can charge its fee source: its bid (the bump's, for a fee bump). */
const bidOf = (envelope: DecodedEnvelope) => envelope.feeBump?.fee ?? envelope.tx.fee;
const feeSourceOf = (envelope: DecodedEnvelope) => envelope.feeBump?.feeSource ?? envelope.tx.source;
const operationsOf = (envelope: DecodedEnvelope) =>
  envelope.tx.operations.length + (envelope.feeBump ? 1 : 0);

export class Pool {
  private queue: Pending[] = [];
  private readonly byHash = new Map<string, Pending>();
  private readonly bySource = new Map<string, Pending>();

  get size(): number {
    return this.queue.length;
  }

  hashes(): string[] {
    return this.queue.map((pending) => pending.envelope.hash);
  }

  find(hash: string): Pending | undefined {
    return this.byHash.get(hash.toLowerCase());
  }

  /** The transaction waiting with this sequence-number source, if any. */
  ofSource(account: string): Pending | undefined {
    return this.bySource.get(account);
  }

  feesOwedBy(account: string): bigint {
    let owed = 0n;
    for (const pending of this.queue) {
      if (feeSourceOf(pending.envelope) === account) owed += bidOf(pending.envelope);
    }
    return owed;
  }

  add(envelope: DecodedEnvelope): Pending {
    let settle: (closed: Closed) => void = () => {};
    const settled = new Promise<Closed>((resolve) => {
      settle = resolve;
    });
    const pending: Pending = { envelope, settled, settle };
    this.queue.push(pending);
    this.byHash.set(envelope.hash, pending);
    this.bySource.set(envelope.tx.source, pending);
    return pending;
  }

  /**
   * What waits, in arrival order, while its operations fit in `maxOperations` (a fee bump counts one more,
   * as stellar-core counts it); the rest stays for the next ledger.
   */
  take(maxOperations: number): Pending[] {
    let operations = 0;
    let taken = 0;
    for (const pending of this.queue) {
      operations += operationsOf(pending.envelope);
      if (operations > maxOperations) break;
      taken++;
    }
    const ledger = this.queue.slice(0, taken);
    this.queue = this.queue.slice(taken);
    for (const { envelope } of ledger) {
      this.byHash.delete(envelope.hash);
      this.bySource.delete(envelope.tx.source);
    }
    return ledger;
  }
}
