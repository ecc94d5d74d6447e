// Issue #10 §5: a burst of payments through the API. 500 P2P payments in a ring of 20 funded own wallets,
// POST /v1/payments/p2p/own at concurrency 16, twice: with immediate closes and with the network's 5 s
// cadence, each run on a whole stack of its own (bench/payment-burst-run.ts). It prints what was accepted
// and settled, payments settled per second, the replacement envelopes the protocol built and, counted on
// the ledger itself, the payments doubled or lost (both must be 0).
//
// A section of `npm run bench`, run after the bench's own stack has stopped (one stack at a time); run alone
// with `node scripts/toolchain.mjs node bench/payment-burst.ts`.

import { fork } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { queues } from '../lib/queues.ts';
import type { PaymentBurstFigures, PaymentBurstSpec } from './payment-burst-run.ts';
import { paymentCostLines } from './payment-cost.ts';
import { fixed, median, minMedianMax, table } from './stats.ts';

export const BURST_WALLETS = 20;
export const BURST_PAYMENTS = 500;
export const BURST_CONCURRENCY = 16;
/** Concurrent worker invocations, as lib/queues.ts states them (the stack's poller runs as many at once). */
const concurrencyOf = (name: string) => queues.find((q) => q.name === name)?.maxConcurrency ?? 1;
export const SUBMITTERS = concurrencyOf('ledger-submissions');
const FUND_EACH = 100;
const AMOUNT = 0.01;
/**
 * PAYMENT_BURST_RUNS=immediate (or cadence) runs that one alone; PAYMENT_BURST_REPEAT=n runs each n times
 * (by default the immediate run three times, for its min-median-max, and the cadence run, which the pool
 * bounds and section 4 measures three times, once).
 */
const only = process.env.PAYMENT_BURST_RUNS;
/** PAYMENT_BURST_WEBHOOK=0: no webhook registration (the runs before issue #40 had none). */
const WEBHOOK = process.env.PAYMENT_BURST_WEBHOOK !== '0';
const repeatOverride = process.env.PAYMENT_BURST_REPEAT;
if (repeatOverride !== undefined && !/^[1-5]$/.test(repeatOverride))
  throw new Error(`PAYMENT_BURST_REPEAT must be 1 to 5, not ${JSON.stringify(repeatOverride)}`);
/** The immediate run's goal (issue #24): twice the 18.8 settled a second measured before it. */
const IMMEDIATE_GOAL_PER_SECOND = 2 * 18.8;

interface BurstRun {
  run: string;
  closeIntervalMs: number;
  sendCapMs: number;
  settleCapMs: number;
  /** Runs of it in a section (PAYMENT_BURST_REPEAT overrides). */
  repeat: number;
}
const repeatsOf = (run: BurstRun) => (repeatOverride ? Number(repeatOverride) : run.repeat);

/**
 * Per run: sending (the API accepts 500 in seconds), then settling. At the cadence 500 payments need at
 * least 500 / 16 channels = 32 ledgers, 160 s; at once, some tens of seconds.
 */
const RUNS = [
  { run: 'immediate', closeIntervalMs: 0, sendCapMs: 60_000, settleCapMs: 90_000, repeat: 3 },
  { run: 'cadence', closeIntervalMs: 5000, sendCapMs: 60_000, settleCapMs: 240_000, repeat: 1 },
] as const satisfies readonly BurstRun[];
const SETUP_CAP_MS = 60_000;
const SETUP_CLOSE_MS = 100;
const ACTIVATORS = concurrencyOf('wallet-activations');
/** Stack start and stop, the count on the ledger: past this a run is stopped (SIGTERM, then SIGKILL). */
const RUN_GRACE_MS = 60_000;
const KILL_GRACE_MS = 20_000;
/** The most the whole section can take (bench/run.ts adds it to its hard cap). */
export const PAYMENT_BURST_CAP_MS = RUNS.reduce(
  (sum, r) =>
    sum + repeatsOf(r) * (SETUP_CAP_MS + r.sendCapMs + r.settleCapMs + RUN_GRACE_MS + KILL_GRACE_MS),
  0,
);

const root = fileURLToPath(new URL('..', import.meta.url));

/** The command line of a running process, or '' (gone, or not readable). */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/**
 * A killed run leaves its stack's DynamoDB Local behind: its pid file (local/stack.ts) names it. A run
 * that stopped cleanly has removed the file. Only a process that is still DynamoDB Local is stopped (a pid
 * may have been reused since).
 */
function stopLeftovers(dataDir: string): void {
  const file = join(dataDir, 'stack.pid.json');
  if (existsSync(file)) {
    const { pids } = JSON.parse(readFileSync(file, 'utf8')) as { pids: number[] };
    for (const pid of pids.slice(1)) {
      if (!commandLine(pid).includes('DynamoDBLocal')) continue;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
}

/** Runs one burst in its own process; its figures, or why there are none. */
export function runBurst(spec: PaymentBurstSpec, capMs: number): Promise<PaymentBurstFigures | string> {
  return new Promise((resolve) => {
    const child = fork(fileURLToPath(new URL('./payment-burst-run.ts', import.meta.url)), [], {
      // Alone, the request limits lifted as bench/run.ts lifts them: a refused payment is no payment's cost.
      env: {
        RATE_LIMIT_SCALE: '1000000',
        ...process.env,
        LOG_LEVEL: 'WARN',
        PAYMENT_BURST_RUN: JSON.stringify(spec),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let figures: PaymentBurstFigures | undefined;
    let killed = '';
    const killer = setTimeout(() => {
      killed = `; stopped at the run's ${capMs / 1000} s cap`;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS).unref();
    }, capMs);
    child.on('message', (message) => {
      figures = message as PaymentBurstFigures;
    });
    child.on('error', (error) => resolve(error.message));
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      stopLeftovers(spec.dataDir);
      resolve(figures ?? `the run exited (${signal ?? `code ${code}`}) without figures${killed}`);
    });
  });
}

const perSecond = (n: number, ms: number) => fixed(n / (ms / 1000), 1);
const closeOf = (spec: PaymentBurstSpec) =>
  spec.closeIntervalMs > 0 ? `every ${spec.closeIntervalMs} ms` : 'at once';

/** The burst at once (immediate closes): what bench/dynamodb-growth.ts runs too. */
export const IMMEDIATE_RUN = RUNS[0];

/** A run's spec, its stack in a folder of its own under .local/; and the most it may take. */
export function burstSpecOf({ run, closeIntervalMs, sendCapMs, settleCapMs }: BurstRun): {
  spec: PaymentBurstSpec;
  capMs: number;
} {
  return {
    spec: {
      run,
      closeIntervalMs,
      dataDir: join(root, '.local', `bench-${process.pid}-payments-${run}`),
      dynamoDbDir: join(root, '.local', 'dynamodb'),
      wallets: BURST_WALLETS,
      fundEach: FUND_EACH,
      payments: BURST_PAYMENTS,
      amount: AMOUNT,
      concurrency: BURST_CONCURRENCY,
      submitters: SUBMITTERS,
      sendCapMs,
      settleCapMs,
      setupCapMs: SETUP_CAP_MS,
      setupCloseMs: SETUP_CLOSE_MS,
      activators: ACTIVATORS,
      webhook: WEBHOOK,
    },
    capMs: SETUP_CAP_MS + sendCapMs + settleCapMs + RUN_GRACE_MS,
  };
}

/** The section: both runs, one after the other, then their figures. */
export async function measurePaymentBurst(): Promise<void> {
  const results: Array<{ spec: PaymentBurstSpec; figures: PaymentBurstFigures | string }> = [];
  const chosen = RUNS.filter((r) => !only || r.run === only);
  for (const run of chosen.flatMap((r) => Array.from({ length: repeatsOf(r) }, () => r))) {
    const { spec, capMs } = burstSpecOf(run);
    results.push({ spec, figures: await runBurst(spec, capMs) });
  }

  console.log(
    `\n== 7. Payment burst through the API (${BURST_PAYMENTS} P2P payments of ${AMOUNT} USDC in a ring of ${BURST_WALLETS} funded own wallets, POST /v1/payments/p2p/own at concurrency ${BURST_CONCURRENCY}; ${SUBMITTERS} ledger-submitter invocations at once)`,
  );
  console.log(
    table(
      [
        'ledger closes',
        'accepted',
        'settled',
        'completed',
        'failed',
        'settled/s',
        'physical limit/s',
        '202s in s',
        'settle wall s',
        '202->settled p50 ms',
        'p99 ms',
        'replaced',
        'extra envelopes',
        'doubled',
        'lost',
      ],
      results.map(({ spec, figures: f }) =>
        typeof f === 'string'
          ? [closeOf(spec), `run failed: ${f}`]
          : [
              closeOf(spec),
              `${f.accepted}/${spec.payments}${f.notSent ? '*' : ''}`,
              `${f.completed + f.failed}${f.settleCapped ? '*' : ''}`,
              String(f.completed),
              String(f.failed),
              perSecond(f.completed + f.failed, f.settleWallMs),
              spec.closeIntervalMs > 0
                ? perSecond(Math.min(f.channels, spec.submitters), spec.closeIntervalMs)
                : 'n/a',
              fixed(f.acceptMs / 1000, 1),
              fixed(f.settleWallMs / 1000, 1),
              fixed(f.settleP50, 0),
              fixed(f.settleP99, 0),
              String(f.replacedIntents),
              String(f.extraEnvelopes),
              String(f.doubled),
              String(f.lost),
            ],
      ),
    ),
  );
  const lines = [
    '',
    `Each run starts a whole stack of its own (DynamoDB Local, fauxqs, the gateway, the outbox's stream poller, the workers)`,
    "whose ledgers close at the run's cadence (LOCAL_LEDGER_CLOSE_MS), in a process of its own. Setup, not timed in the table:",
    `${BURST_WALLETS} own USDC wallets created, opened (${ACTIVATORS} wallet-activator invocations at once) and funded with ${FUND_EACH} USDC each`,
    `through the API; on the cadence ledger the bench closes a ledger every ${SETUP_CLOSE_MS} ms during setup only, so activations and`,
    'fundings do not each wait out a close. The burst runs on the cadence alone.',
    `Payment i: wallet i % ${BURST_WALLETS} -> wallet (i + 1) % ${BURST_WALLETS}, a new transactionId, memo pb:<run>:<i> (its ledger transaction carries it).`,
    `The ledger-submissions queue's one receive loop hands its messages to up to ${SUBMITTERS} ledger-submitter invocations at once (the queue's`,
    "maxConcurrency, lib/queues.ts; batch size 1), as Lambda runs an SQS event source's batches side by side.",
    'accepted = 202s (* = the send cap stopped it); settled = records completed + failed (* = the settle cap came first).',
    'settled/s = settled / (first 202 -> the last record\'s settlement, its updatedAt): "settle wall".',
    'physical limit = channel accounts / close interval (a ledger takes one transaction per channel, each submitter waits',
    '  for its ledger); at once there is none.',
    "202->settled = per record, createdAt (the request's acceptance) -> updatedAt (settled), from the records.",
    'replaced = submission records (SUBMISSION#sandbox#payment:<id>) with attempt > 1; extra envelopes = sum of',
    '  envelopes.length - 1 over them.',
    'doubled / lost, from the ledger: every payment the wallets sent (Horizon, all pages) is tied to its API payment by',
    '  its memo. doubled = payments on the ledger more than once + ledger payments of no accepted payment; lost =',
    "  completed records with none on the ledger + failed records with one there + records still 'initiated' at the",
    '  end + 202s with no record. Both must be 0.',
  ];
  for (const { spec, figures: f } of results) {
    if (typeof f === 'string') continue;
    const failures = Object.entries(f.failures)
      .map(([code, n]) => `${code} ${n}`)
      .join(', ');
    lines.push(
      `closes ${closeOf(spec)}: stack up in ${fixed(f.stackMs / 1000, 1)} s, setup ${fixed(f.setupMs / 1000, 1)} s; ` +
        `${f.channels} channels; refused ${f.refused}, not sent ${f.notSent}; on the ledger once ${f.paidOnce}, ` +
        `twice or more ${f.landedTwice}, stray ${f.stray}; completed not on the ledger ${f.completedNotOnLedger}, failed ` +
        `on it ${f.failedOnLedger}, still initiated ${f.stillInitiated}, no record ${f.noRecord}; records naming another ` +
        `transaction than the ledger's ${f.misnamed}; settled without a submission record ${f.missingSubmissions}` +
        `${failures ? `; failures: ${failures}` : ''}` +
        `${f.notSent ? `; send cap of ${spec.sendCapMs / 1000} s reached` : ''}` +
        `${f.settleCapped ? `; settle cap of ${spec.settleCapMs / 1000} s reached` : ''}.`,
    );
    if (f.firstError) lines.push(`  first error: ${f.firstError}`);
    const settled = f.completed + f.failed;
    const aws = Object.entries(f.calls).filter(([name]) => name.includes('.'));
    lines.push(
      `  CPU per settled payment: ${fixed(f.cpuMs.stack / settled, 1)} ms in the stack's process (gateway, functions, ` +
        `pollers, ledger, fauxqs) + ${fixed(f.cpuMs.dynamoDb / settled, 1)} ms in DynamoDB Local; load average ` +
        `${fixed(f.load[0], 2)} -> ${fixed(f.load[1], 2)}; AWS calls per payment ${fixed(aws.reduce((sum, [, n]) => sum + n, 0) / settled, 1)}: ` +
        aws
          .sort((a, b) => b[1] - a[1])
          .map(([name, n]) => `${name} ${fixed(n / settled, 1)}`)
          .join(', '),
    );
  }
  lines.push(...spreadLines(results));
  console.log(lines.join('\n'));
  console.log(paymentCostLines(results).join('\n'));
}

/** Per kind of run measured more than once: min / median / max of its rate, its CPU and the load. */
function spreadLines(results: Array<{ spec: PaymentBurstSpec; figures: PaymentBurstFigures | string }>) {
  const lines: string[] = [];
  for (const closeIntervalMs of new Set(results.map((r) => r.spec.closeIntervalMs))) {
    const runs = results.flatMap(({ spec, figures }) =>
      spec.closeIntervalMs === closeIntervalMs && typeof figures !== 'string' ? [figures] : [],
    );
    if (runs.length < 2) continue;
    const settledOf = (f: PaymentBurstFigures) => f.completed + f.failed;
    const rates = runs.map((f) => settledOf(f) / (f.settleWallMs / 1000));
    const label = closeIntervalMs === 0 ? 'at once' : `every ${closeIntervalMs / 1000} s`;
    lines.push(
      `closes ${label}, ${runs.length} runs, min / median / max: settled/s ${minMedianMax(rates, 1)}; CPU per settled payment ` +
        `${minMedianMax(
          runs.map((f) => f.cpuMs.stack / settledOf(f)),
          1,
        )} ms in the stack's process + ${minMedianMax(
          runs.map((f) => f.cpuMs.dynamoDb / settledOf(f)),
          1,
        )} ms in DynamoDB Local; load average at each start ${minMedianMax(
          runs.map((f) => f.load[0]),
          2,
        )}.`,
    );
    if (closeIntervalMs === 0)
      lines.push(
        `  goal (issue #24): >= ${fixed(IMMEDIATE_GOAL_PER_SECOND, 1)} settled/s (twice the 18.8 measured before it): ` +
          `${median(rates) >= IMMEDIATE_GOAL_PER_SECOND ? 'met' : 'NOT MET'} (median).`,
      );
  }
  return lines;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await measurePaymentBurst();
}
