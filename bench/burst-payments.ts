// The submission burst's payments and the workers that send them: payment i goes from a random account to
// another random one (or, in a ring, from account i % n to account (i + 1) % n), its transaction built on a
// leased channel account, and is its own intent. Workers take payments in order and behave like
// at-least-once SQS workers: a payment whose submitOnce answers `pending` is delivered again after a pause,
// as a redelivery would.
import { Asset, type Keypair, Memo, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import { openWithKey } from '../lib/ledger/custody.ts';
import type { BuildTransaction, SubmissionOutcome } from '../lib/ledger/submit.ts';

type Submit = typeof import('../lib/ledger/submit.ts');

/** Each payment moves this much XLM; the accounts start with far more than a burst can spend. */
export const PAYMENT_XLM = '1';
/** Text memos hold at most 28 bytes (the XDR bound): the intent id must fit, as the ledger count reads it. */
const MEMO_TEXT_BYTES = 28;

export const intentIdOf = (run: string, index: number) => `bench-burst:${run}:${index}`;

/** Payer and payee of a payment: indices into the accounts. */
export type PaymentPair = readonly [payer: number, payee: number];

/**
 * Who pays whom. `random`: a random payer and another random payee for each payment (seeded: every run
 * pays the same pairs), so one payer is often in flight several times at once, as in real traffic.
 * `ring`: payment i from account i % n to the next one, so the payers in flight at once are distinct.
 */
export type PairOrder = 'random' | 'ring';

export function paymentPairs(payments: number, accounts: number, order: PairOrder): PaymentPair[] {
  if (order === 'ring') return Array.from({ length: payments }, (_, i) => [i % accounts, (i + 1) % accounts]);
  let seed = 0x9e3779b9;
  const random = (n: number) => {
    // xorshift32: enough to scatter payers; not for anything secret.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return Math.floor(((seed >>> 0) / 2 ** 32) * n);
  };
  return Array.from({ length: payments }, () => {
    const payer = random(accounts);
    return [payer, (payer + 1 + random(accounts - 1)) % accounts];
  });
}

/**
 * Builds payment `index`: 1 XLM from its payer to its payee, with the intent id as its text memo, so the
 * ledger itself tells which intent each payment belongs to. As the gateway builds payments
 * (lib/ledger/operations.ts): on the channel submitOnce leased (the payer is the operation's source),
 * fee-bumped by the funding account.
 */
export function paymentBuild(
  submit: Submit,
  keys: { accounts: Keypair[]; kek: Buffer; funding: Keypair },
  run: string,
  index: number,
  [from, to]: PaymentPair,
): BuildTransaction {
  const { accounts } = keys;
  const payer = accounts[from] as Keypair;
  const payee = accounts[to] as Keypair;
  const memo = intentIdOf(run, index);
  if (Buffer.byteLength(memo) > MEMO_TEXT_BYTES) throw new RangeError(`memo ${memo} is over 28 bytes`);
  return async (ctx) => {
    if (!ctx.channel) throw new Error('submitOnce leased no channel');
    const { publicKey, sealedSecret } = ctx.channel.signer;
    const channel = openWithKey(keys.kek, publicKey, sealedSecret);
    const inner = new TransactionBuilder(submit.sourceAccountFor(ctx, ctx.channel.account), {
      fee: submit.baseFeeFor(ctx.feeLevel),
      networkPassphrase: ctx.networkPassphrase,
      timebounds: submit.timeBoundsFor(ctx.now),
    })
      .addOperation(
        Operation.payment({
          source: payer.publicKey(),
          destination: payee.publicKey(),
          asset: Asset.native(),
          amount: PAYMENT_XLM,
        }),
      )
      .addMemo(Memo.text(memo))
      .build();
    inner.sign(channel, payer);
    const bump = TransactionBuilder.buildFeeBumpTransaction(
      keys.funding,
      submit.baseFeeFor(ctx.feeLevel),
      inner,
      ctx.networkPassphrase,
    );
    bump.sign(keys.funding);
    return bump;
  };
}

export interface Delivery {
  /** The last answer of submitOnce, or undefined when every delivery threw. */
  outcome: SubmissionOutcome | undefined;
  /** How many times the payment was delivered (submitOnce calls). */
  deliveries: number;
}

export interface WorkerOptions {
  payments: number;
  concurrency: number;
  /** Deliveries of one payment before it is left pending (the queue's maxReceiveCount). */
  maxDeliveries: number;
  /** Before each redelivery (a stand-in for the visibility timeout, shortened). */
  redeliveryPauseMs: number;
  /**
   * After this (performance.now() ms) no payment is taken and none is delivered again: the calls in hand
   * finish, so a capped run still ends within one submitOnce call.
   */
  deadline: number;
  deliver: (index: number) => Promise<SubmissionOutcome>;
}

export interface WorkersResult {
  /** By payment index; missing for payments never taken (the deadline came first). */
  deliveries: Map<number, Delivery>;
  wallMs: number;
  firstError: string | undefined;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `concurrency` workers over the payments, in order, each redelivering its payment while it is pending. */
export async function runWorkers(options: WorkerOptions): Promise<WorkersResult> {
  const deliveries = new Map<number, Delivery>();
  let next = 0;
  let firstError: string | undefined;
  const begin = performance.now();
  const worker = async () => {
    while (next < options.payments && performance.now() < options.deadline) {
      const index = next++;
      const delivery: Delivery = { outcome: undefined, deliveries: 0 };
      deliveries.set(index, delivery);
      while (delivery.deliveries < options.maxDeliveries) {
        if (delivery.deliveries > 0) {
          if (performance.now() >= options.deadline) break;
          await pause(options.redeliveryPauseMs);
        }
        delivery.deliveries++;
        try {
          delivery.outcome = await options.deliver(index);
          if (delivery.outcome.status !== 'pending') break;
        } catch (error) {
          // A worker that throws leaves its message to be delivered again, as SQS would.
          firstError ??= `payment ${index}: ${(error as Error).message}`;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return { deliveries, wallMs: performance.now() - begin, firstError };
}
