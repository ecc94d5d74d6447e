// One run of the submission burst, in a process of its own (bench/submission-burst.ts forks it): the
// ledger network of an environment is read from config once per process and kept (lib/ledger/network.ts),
// so each run's own ledger, with its own cadence, gets a fresh process rather than a patched module.
//
// It starts a local ledger whose genesis holds the run's accounts, its channel accounts and a funding
// account, points the sandbox environment at it, sends the payments through submitOnce (records and the
// channel pool in a table of the run's own, in the DynamoDB Local its environment names), lets the last
// pending ledger close, counts every payment on the ledger per intent and sends the figures back.
import { randomBytes, randomUUID } from 'node:crypto';
import { subscribe } from 'node:diagnostics_channel';
import { Keypair } from '@stellar/stellar-sdk';
import { resetConfig } from '../lib/config.ts';
import { ensureChannelKeys } from '../lib/ledger/channels.ts';
import { sealWithKey } from '../lib/ledger/custody.ts';
import type { SubmissionRecord } from '../lib/ledger/submissions.ts';
import { queues } from '../lib/queues.ts';
import { startLocalLedger } from '../local/ledger/index.ts';
import { useOwnTable } from '../local/stack.ts';
import { census, ledgerPaymentsByMemo, readAll } from './burst-census.ts';
import {
  intentIdOf,
  type PairOrder,
  type PaymentPair,
  paymentBuild,
  paymentPairs,
  runWorkers,
} from './burst-payments.ts';

/** What the parent hands the run (JSON in BURST_RUN). */
export interface BurstRunSpec {
  /** Names the run (its pool and its number): part of every intent id and memo. */
  run: string;
  closeIntervalMs: number;
  payments: number;
  /** Who pays whom. */
  order: PairOrder;
  accounts: number;
  /** Channel accounts in the pool (LEDGER_CHANNELS). */
  channels: number;
  concurrency: number;
  /** No payment is taken after this many ms from the first; those in hand are finished. */
  capMs: number;
  redeliveryPauseMs: number;
}

/** What the run sends back. */
export interface BurstFigures {
  spec: BurstRunSpec;
  /** Deliveries of one payment before it is left pending. */
  maxDeliveries: number;
  wallMs: number;
  /** Payments never taken: the cap came first. */
  notTaken: number;
  succeeded: number;
  failed: number;
  /** Still in flight on the record after the last delivery (an SQS message left for the DLQ). */
  pending: number;
  /** submitOnce calls beyond the first, over all payments. */
  redeliveries: number;
  /** Envelopes built beyond each intent's first (sum of envelopes.length - 1 over the records). */
  replacements: number;
  /** The highest envelope count of one intent. */
  mostEnvelopes: number;
  /** The fee (stroops per operation) its last envelope offered. */
  highestFee: string;
  /** Every POST /transactions answer, by result code ('accepted' for a 200). */
  answers: Record<string, number>;
  paidOnce: number;
  doubled: number;
  lost: number;
  misnamed: number;
  stray: number;
  /** Recorded succeeded with no payment of theirs on the ledger. */
  falseCompleted: number;
  /** Transactions in each ledger from the first that carried one of the run's to the last (empty ones too). */
  ledgers: number[];
  /** CPU time of this process (the workers, submitOnce, the local ledger) during the burst, ms. */
  cpuMs: number;
  firstError: string | undefined;
}

/** The sandbox environment's ledger submissions: an entry in lib/queues.ts, its maxReceiveCount the bound. */
const SUBMISSION_QUEUE = 'ledger-submissions';
/** Every account starts with this much XLM: a burst of 1 XLM payments never runs one dry. */
const STARTING_XLM = '100000';
const RECORD_READS_AT_ONCE = 16;
/** A channel account holds only its reserve: the funding account fee-bumps every payment. */
const CHANNEL_XLM = '10';

/** Successful transactions per ledger, from the first ledger after genesis that holds one to the last. */
async function transactionsPerLedger(horizonUrl: string): Promise<number[]> {
  type LedgerRecord = { sequence: number; successful_transaction_count: number; paging_token: string };
  const counts = (await readAll<LedgerRecord>(horizonUrl, '/ledgers'))
    .filter((record) => record.sequence > 1)
    .map((record) => record.successful_transaction_count);
  const first = counts.findIndex((n) => n > 0);
  return first < 0 ? [] : counts.slice(first, counts.findLastIndex((n) => n > 0) + 1);
}

const spec = JSON.parse(process.env.BURST_RUN ?? 'null') as BurstRunSpec | null;
const send = process.send?.bind(process);
if (!spec || !send) throw new Error('bench/burst-run.ts is forked by bench/submission-burst.ts');

const maxDeliveries = queues.find((q) => q.name === SUBMISSION_QUEUE)?.maxReceiveCount;
if (!maxDeliveries) throw new Error(`no ${SUBMISSION_QUEUE} queue in lib/queues.ts`);

const accounts = Array.from({ length: spec.accounts }, () => Keypair.random());
const funding = Keypair.random();
// The pool lives in a table of the run's own, its keys sealed under a key-encryption key of the run's own
// (the bench runs without the stack's Secrets Manager); the builder opens them from the lease.
process.env.LEDGER_CHANNELS = String(spec.channels);
await useOwnTable(`bench-burst-${spec.run}`);
const kek = randomBytes(32);
const channels = await ensureChannelKeys('sandbox', spec.channels, {
  newKeys: async () => {
    const channel = Keypair.random();
    return { publicKey: channel.publicKey(), sealedSecret: sealWithKey(kek, channel) };
  },
});
const ledger = await startLocalLedger({
  port: 0,
  networkPassphrase: `Bench burst ${spec.run} ; ${randomUUID()}`,
  closeIntervalMs: spec.closeIntervalMs,
  genesis: {
    accounts: [
      ...accounts.map((a) => ({ publicKey: a.publicKey(), nativeBalance: STARTING_XLM })),
      ...channels.map(({ publicKey }) => ({ publicKey, nativeBalance: CHANNEL_XLM })),
      { publicKey: funding.publicKey(), nativeBalance: STARTING_XLM },
    ],
  },
  friendbot: false,
});
try {
  process.env.HORIZON_URL_SANDBOX = ledger.url;
  process.env.NETWORK_PASSPHRASE_SANDBOX = ledger.networkPassphrase;
  resetConfig();
  // Imported only now, as the tests do: nothing may read the sandbox network before it points here.
  const submit = await import('../lib/ledger/submit.ts');
  const { findSubmission } = await import('../lib/ledger/submissions.ts');
  const { SUBMISSION_ANSWERS_CHANNEL } = await import('../lib/ledger/horizon-submit.ts');

  // Every answer to a submission, tallied by code: a storm of tx_try_again_later or tx_bad_seq shows here.
  const answers: Record<string, number> = {};
  subscribe(SUBMISSION_ANSWERS_CHANNEL, (message) => {
    const { answer } = message as { answer: string };
    answers[answer] = (answers[answer] ?? 0) + 1;
  });

  const intentIds = Array.from({ length: spec.payments }, (_, i) => intentIdOf(spec.run, i));
  const pairs = paymentPairs(spec.payments, spec.accounts, spec.order);
  // A run starts at a ledger boundary, as every ledger of a sustained load does: a first close due a moment
  // after the first payment would leave that ledger part-empty and cost the run a close of its own.
  if (spec.closeIntervalMs > 0) await ledger.closeLedgerNow();
  const cpuBefore = process.cpuUsage();
  const worked = await runWorkers({
    payments: spec.payments,
    concurrency: spec.concurrency,
    maxDeliveries,
    redeliveryPauseMs: spec.redeliveryPauseMs,
    deadline: performance.now() + spec.capMs,
    deliver: (i) =>
      submit.submitOnce({
        environment: 'sandbox',
        intentId: intentIdOf(spec.run, i),
        channel: true,
        build: paymentBuild(submit, { accounts, kek, funding }, spec.run, i, pairs[i] as PaymentPair),
      }),
  });
  const cpu = process.cpuUsage(cpuBefore);
  // Whatever still waits in the pool lands (or not) now, so the count sees everything that can land.
  if (spec.closeIntervalMs > 0) await ledger.closeLedgerNow();

  const records = new Map<string, SubmissionRecord | undefined>();
  for (let i = 0; i < intentIds.length; i += RECORD_READS_AT_ONCE) {
    const batch = intentIds.slice(i, i + RECORD_READS_AT_ONCE);
    const found = await Promise.all(batch.map((id) => findSubmission('sandbox', id)));
    batch.forEach((id, j) => {
      records.set(id, found[j]);
    });
  }
  const statuses = [...records.values()].map((r) => r?.status);
  const envelopeCounts = [...records.values()].map((r) => r?.envelopes.length ?? 0);
  const feeLevels = [...records.values()].map((r) => r?.feeLevel ?? r?.attempt ?? 1);
  const onLedger = census(
    intentIds,
    records,
    await ledgerPaymentsByMemo(
      ledger.url,
      accounts.map((a) => a.publicKey()),
    ),
  );
  const deliveries = [...worked.deliveries.values()].map((d) => d.deliveries);
  const ledgers = await transactionsPerLedger(ledger.url);
  const figures: BurstFigures = {
    spec,
    maxDeliveries,
    wallMs: worked.wallMs,
    notTaken: spec.payments - worked.deliveries.size,
    succeeded: statuses.filter((s) => s === 'succeeded').length,
    failed: statuses.filter((s) => s === 'failed').length,
    pending: statuses.filter((s) => s === 'submitting').length,
    redeliveries: deliveries.reduce((sum, n) => sum + n - 1, 0),
    replacements: envelopeCounts.reduce((sum, n) => sum + Math.max(0, n - 1), 0),
    mostEnvelopes: Math.max(0, ...envelopeCounts),
    highestFee: submit.baseFeeFor(Math.max(1, ...feeLevels)),
    answers,
    ...onLedger,
    ledgers,
    cpuMs: (cpu.user + cpu.system) / 1000,
    firstError: worked.firstError,
  };
  await new Promise((resolve) => send(figures, undefined, {}, resolve));
} finally {
  await ledger.stop();
}
// The DynamoDB client's sockets would keep the process alive.
process.exit(0);
