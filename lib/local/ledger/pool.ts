// The pending pool of a ledger that closes on a cadence: accepted transactions in arrival order, waiting for
// the next close. Like stellar-core's queue it holds at most one transaction per source account, and
// counts what each fee source already owes, so a new submission is judged against state + pool.
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

  /** Everything waiting, in arrival order; the pool is empty afterwards. */
  drain(): Pending[] {
    const drained = this.queue;
    this.queue = [];
    this.byHash.clear();
    this.bySource.clear();
    return drained;
  }
}
