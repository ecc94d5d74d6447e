// Issue #9 §4: a submission burst straight through submitOnce. Payments between accounts the bench holds
// (in its own ledger's genesis), at concurrency 16, twice: with immediate closes and with the network's
// 5 s cadence. It prints throughput against the physical limit, the replacement envelopes the protocol
// built, and, counted on the ledger itself, the payments doubled or lost (both must be 0).
//
// A section of `npm run bench` (records in the stack's DynamoDB Local); run alone with
// `node scripts/toolchain.mjs node bench/submission-burst.ts` (it starts a DynamoDB Local of its own).
// BURST_PAYMENTS shrinks (or grows) the burst; BURST_ORDER=shuffled has the workers take the payments in a
// shuffled order, so payments of one account meet in flight (see TakingOrder).
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createTableInput } from '../lib/db/table.ts';
import { startDynamoDbLocal } from '../lib/local/dynamodb-local.ts';
import { PAYMENT_XLM, type TakingOrder } from './burst-payments.ts';
import type { BurstFigures, BurstRunSpec } from './burst-run.ts';
import { fixed, table } from './stats.ts';

const DEFAULT_PAYMENTS = 500;
/** Intent ids are memos too (at most 28 bytes): `bench-burst:immediate:9999` fits. */
const MAX_PAYMENTS = 10_000;
const ACCOUNTS = 20;
const CONCURRENCY = 16;
/** Channel accounts in the pool (the stack's LEDGER_CHANNELS default). */
const CHANNELS = 16;
/** A worker's pause before delivering a pending payment again (SQS would wait out the visibility timeout). */
const REDELIVERY_PAUSE_MS = 1000;
/**
 * Per run, the time after which no payment is taken. 500 payments at the cadence take ~160 s (16 in
 * flight per 5 s ledger); immediate closes take seconds.
 */
const RUNS = [
  { run: 'immediate', closeIntervalMs: 0, capMs: 60_000 },
  { run: 'cadence', closeIntervalMs: 5000, capMs: 200_000 },
] as const;
/** After its cap, a run finishes the deliveries in hand, closes a ledger and counts: then it is killed. */
const RUN_GRACE_MS = 90_000;
/** The most the whole section can take (bench/run.ts adds it to its hard cap). */
export const BURST_SECTION_CAP_MS = RUNS.reduce((sum, r) => sum + r.capMs + RUN_GRACE_MS, 0);

function paymentsWanted(): number {
  const text = process.env.BURST_PAYMENTS ?? String(DEFAULT_PAYMENTS);
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > MAX_PAYMENTS)
    throw new Error(
      `BURST_PAYMENTS must be a whole number from 1 to ${MAX_PAYMENTS}, not ${JSON.stringify(text)}`,
    );
  return n;
}

function orderWanted(): TakingOrder {
  const order = process.env.BURST_ORDER ?? 'in-order';
  if (order !== 'in-order' && order !== 'shuffled')
    throw new Error(`BURST_ORDER must be in-order or shuffled, not ${JSON.stringify(order)}`);
  return order;
}

/** Runs one burst in its own process; its figures, or why there are none. */
function runBurst(spec: BurstRunSpec, env: Record<string, string>): Promise<BurstFigures | string> {
  return new Promise((resolve) => {
    const child = fork(fileURLToPath(new URL('./burst-run.ts', import.meta.url)), [], {
      env: { ...process.env, LOG_LEVEL: 'WARN', ...env, BURST_RUN: JSON.stringify(spec) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let figures: BurstFigures | undefined;
    const killer = setTimeout(() => child.kill('SIGKILL'), spec.capMs + RUN_GRACE_MS);
    child.on('message', (message) => {
      figures = message as BurstFigures;
    });
    child.on('error', (error) => resolve(error.message));
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      resolve(figures ?? `the run exited (${signal ?? `code ${code}`}) without figures`);
    });
  });
}

const perSecond = (n: number, ms: number) => fixed(n / (ms / 1000), 1);
const limitOf = (closeIntervalMs: number, sources: number) =>
  closeIntervalMs > 0 ? perSecond(sources, closeIntervalMs) : 'n/a';
const answersOf = (answers: Record<string, number>) =>
  Object.entries(answers)
    .sort(([, a], [, b]) => b - a)
    .map(([code, n]) => `${code} ${n}`)
    .join(', ') || 'none';

/** The section: both runs against the DynamoDB table `env` names, then their figures. */
export async function measureSubmissionBurst(env: Record<string, string>): Promise<void> {
  const payments = paymentsWanted();
  const order = orderWanted();
  const results: Array<{ spec: BurstRunSpec; figures: BurstFigures | string }> = [];
  for (const { run, closeIntervalMs, capMs } of RUNS) {
    const spec: BurstRunSpec = {
      run,
      closeIntervalMs,
      payments,
      order,
      accounts: ACCOUNTS,
      channels: CHANNELS,
      concurrency: CONCURRENCY,
      capMs,
      redeliveryPauseMs: REDELIVERY_PAUSE_MS,
    };
    results.push({ spec, figures: await runBurst(spec, env) });
  }

  const closeOf = (spec: BurstRunSpec) =>
    spec.closeIntervalMs > 0 ? `every ${spec.closeIntervalMs} ms` : 'at once';
  console.log(
    `\n== 4. Submission burst straight through submitOnce (${payments} payments between ${ACCOUNTS} accounts, ${CHANNELS} channel accounts, concurrency ${CONCURRENCY}, taken ${order}, each its own intent)`,
  );
  console.log(
    table(
      [
        'ledger closes',
        'settled',
        'settled/s',
        'physical limit/s',
        'wall s',
        'replacements',
        'redeliveries',
        'failed',
        'pending',
        'not taken',
        'doubled',
        'lost',
      ],
      results.map(({ spec, figures: f }) =>
        typeof f === 'string'
          ? [closeOf(spec), `run failed: ${f}`]
          : [
              closeOf(spec),
              `${f.succeeded}/${spec.payments}`,
              perSecond(f.succeeded, f.wallMs),
              limitOf(spec.closeIntervalMs, Math.min(spec.channels, spec.concurrency)),
              fixed(f.wallMs / 1000, 1),
              String(f.replacements),
              String(f.redeliveries),
              String(f.failed),
              String(f.pending),
              String(f.notTaken),
              String(f.doubled),
              String(f.lost),
            ],
      ),
    ),
  );
  const lines = [
    '',
    `Payment i pays ${PAYMENT_XLM} XLM from account i % ${ACCOUNTS} to account (i + 1) % ${ACCOUNTS}, intent bench-burst:<run>:<i>, its transaction`,
    `built as the gateway builds payments: on a channel account submitOnce leases from a pool of ${CHANNELS} (the payer is the`,
    "operation's source and signs), fee-bumped by a funding account. Each run has a ledger of its own (its genesis",
    'holds the accounts and channels) in a process of its own; records and the pool go to a table of its own.',
    ...(order === 'in-order'
      ? [
          'Workers take payments in order (0, 1, 2…): with fewer workers than accounts, the payments in flight at once',
          '  have distinct payers (BURST_ORDER=shuffled makes payments of one account meet in flight).',
        ]
      : [
          'Workers take payments in a shuffled order (BURST_ORDER=shuffled): payments of one account meet in flight, on',
          '  different channels, so they land in the same ledger (the payer is not the sequence source).',
        ]),
    'They act as at-least-once SQS workers: a payment for which submitOnce (its defaults: 5 rounds, 1 s pauses) answers',
    `'pending' is delivered again ${REDELIVERY_PAUSE_MS} ms later, at most the ledger-submissions queue's maxReceiveCount times in all`,
    '(then it stays pending, as the message would go to the DLQ).',
    'settled/s = payments recorded succeeded / wall time (first payment taken -> last worker done).',
    'physical limit = channel accounts / close interval: a ledger takes one transaction per source, and every',
    `  transaction's source is a channel. With ${CONCURRENCY} workers each waiting for its ledger (Horizon answers a submission`,
    `  once it has closed), at most min(${CHANNELS} channels, ${CONCURRENCY} workers) payments can enter a ledger: ${perSecond(Math.min(CONCURRENCY, CHANNELS), RUNS[1].closeIntervalMs)}/s at ${RUNS[1].closeIntervalMs} ms.`,
    "replacements = envelopes built beyond each intent's first (sum of envelopes.length - 1 over the records); each",
    '  raises the fee (baseFeeFor(feeLevel)) only when a node refused the one before for its fee or its queue.',
    'redeliveries = submitOnce calls beyond the first per payment. failed / pending = records failed / still in flight.',
    'doubled / lost, from the ledger: every payment each account sent (Horizon, all pages) is tied to its intent by',
    "  its transaction's text memo (the intent id). doubled = intents with more than one payment on the ledger;",
    '  lost = intents recorded succeeded with none there, or recorded failed with one there. Both must be 0.',
  ];
  for (const { spec, figures: f } of results) {
    if (typeof f === 'string') continue;
    lines.push(
      `closes ${closeOf(spec)}: submission answers: ${answersOf(f.answers)}; on the ledger once ${f.paidOnce},` +
        ` most envelopes for one intent ${f.mostEnvelopes} (highest fee offered ${f.highestFee} stroops), records naming another transaction than the ledger's ${f.misnamed},` +
        ` payments of no intent ${f.stray}${f.notTaken ? `; cap of ${spec.capMs / 1000} s reached` : ''}.`,
    );
    if (f.firstError) lines.push(`  first error: ${f.firstError}`);
  }
  console.log(lines.join('\n'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const dynamo = await startDynamoDbLocal(join(root, '.local', 'dynamodb'));
  const stop = () => void dynamo.stop().finally(() => process.exit(130));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const env = {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      TABLE_NAME: 'bench-burst',
    };
    const client = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: env.AWS_REGION,
      credentials: {
        accessKeyId: env.AWS_ACCESS_KEY_ID,
        secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
      },
    });
    await client.send(new CreateTableCommand(createTableInput(env.TABLE_NAME)));
    client.destroy();
    await measureSubmissionBurst(env);
  } finally {
    await dynamo.stop();
  }
}
