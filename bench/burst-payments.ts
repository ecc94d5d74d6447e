// The submission burst's payments and the workers that send them: payment i goes from account i % n to
// account (i + 1) % n, its transaction built on a leased channel account, and is its own intent. Workers
// take payments in order and behave like at-least-once SQS workers: a payment whose submitOnce answers
// `pending` is delivered again after a pause, as a redelivery would.
import { Asset, type Keypair, Memo, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import { openWithKey } from '../lib/ledger/custody.ts';
import type { BuildTransaction, SubmissionOutcome } from '../lib/ledger/submit.ts';

type Submit = typeof import('../lib/ledger/submit.ts');

/** Each payment moves this much XLM; the accounts start with far more than a burst can spend. */
export const PAYMENT_XLM = '1';
/** Text memos hold at most 28 bytes (the XDR bound): the intent id must fit, as the ledger count reads it. */
const MEMO_TEXT_BYTES = 28;

export const intentIdOf = (run: string, index: number) => `bench-burst:${run}:${index}`;

/**
 * Builds payment `index`: 1 XLM from `accounts[index % n]` to the next account, with the intent id as
 * its text memo, so the ledger itself tells which intent each payment belongs to. As the gateway builds
 * payments (lib/ledger/operations.ts): on the channel submitOnce leased (the payer is the operation's
 * source), fee-bumped by the funding account.
 */
export function paymentBuild(
  submit: Submit,
  keys: { accounts: Keypair[]; kek: Buffer; funding: Keypair },
  run: string,
  index: number,
): BuildTransaction {
  const { accounts } = keys;
  const payer = accounts[index % accounts.length] as Keypair;
  const payee = accounts[(index + 1) % accounts.length] as Keypair;
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

/**
 * The order workers take payments in. `in-order` (0, 1, 2…): with fewer workers than accounts, the
 * payments in flight at once have distinct payers, so two of one account rarely meet. `shuffled` (a fixed
 * permutation): they often do, as when a queue does not keep order or one payer sends many payments at once.
 */
export type TakingOrder = 'in-order' | 'shuffled';

/** Payment indices in the order they are taken; the shuffle is seeded, so every run takes the same one. */
export function takingOrder(payments: number, order: TakingOrder): number[] {
  const indices = Array.from({ length: payments }, (_, i) => i);
  if (order === 'in-order') return indices;
  let seed = 0x9e3779b9;
  const random = () => {
    // xorshift32: enough to scatter payers; not for anything secret.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  for (let i = indices.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [indices[i], indices[j]] = [indices[j] as number, indices[i] as number];
  }
  return indices;
}

export interface WorkerOptions {
  /** Payment indices, in the order they are taken. */
  order: readonly number[];
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

/** Runs `concurrency` workers over the payments, each redelivering its payment while it is pending. */
export async function runWorkers(options: WorkerOptions): Promise<WorkersResult> {
  const deliveries = new Map<number, Delivery>();
  let next = 0;
  let firstError: string | undefined;
  const begin = performance.now();
  const worker = async () => {
    while (next < options.order.length && performance.now() < options.deadline) {
      const index = options.order[next++] as number;
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
