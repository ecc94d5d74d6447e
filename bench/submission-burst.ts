// Issue #9 §4, issue #24 §1: a submission burst straight through submitOnce, at the network's 5 s cadence,
// with pools of 16, 64 and 256 channel accounts, three runs each. Payments go between 100 accounts the
// bench holds (in its own ledger's genesis), each from a random payer to a random payee, so one payer is
// in flight several times at once; as many workers as channels (the ledger-submitter's concurrency follows
// the pool, lib/queues.ts). It prints settled/s min–median–max against the physical limit and the goal,
// and, counted on the ledger itself by memo, the payments doubled, lost or falsely completed (all 0).
//
// A section of `npm run bench`, run once the bench's stack has stopped; alone:
// `node scripts/toolchain.mjs node bench/submission-burst.ts`. Every run starts a DynamoDB Local of its own
// (withOwnDynamoDb).
// BURST_CHANNELS=16,64 picks the pools, BURST_RUNS the runs of each (1 to 5), BURST_ORDER=ring sends
// payment i from account i % 100 to the next one instead (the payers in flight at once are then distinct).
import { fork } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { submitterConcurrency } from '../lib/queues.ts';
import { startDynamoDbLocal } from '../local/dynamodb-local.ts';
import { PAYMENT_XLM, type PairOrder } from './burst-payments.ts';
import type { BurstFigures, BurstRunSpec } from './burst-run.ts';
import { fixed, median, table } from './stats.ts';

const ACCOUNTS = 100;
const CLOSE_INTERVAL_MS = 5000;
/** Pools measured, and what each should settle a second in random order (issue #24's goals: 90 % of the limit). */
const POOLS = [
  { channels: 16, goal: 2.9 },
  { channels: 64, goal: 11.5 },
  { channels: 256, goal: 46 },
] as const;
const DEFAULT_RUNS = 3;
/**
 * Each run sends this many ledgers' worth of payments (channels × closes): enough to hold the pool full, and
 * enough that the close the last few stragglers need (a worker that missed one ledger by a moment) weighs
 * a tenth of the run, not a fifth.
 */
const CLOSES_PER_RUN = 10;
/** A worker's pause before delivering a pending payment again (SQS would wait out the visibility timeout). */
const REDELIVERY_PAUSE_MS = 1000;
/** Per run, no payment is taken after this: twice its closes at the cadence, and 20 s more. */
const CAP_MS = 2 * CLOSES_PER_RUN * CLOSE_INTERVAL_MS + 20_000;
/**
 * After its cap, a run finishes the deliveries in hand, closes a ledger and counts: then it is killed. A pool
 * of 256 on a starved machine needs minutes for its keys, its count and the submissions still waiting.
 */
const RUN_GRACE_MS = 180_000;
/** The most the whole section can take (bench/run.ts adds it to its hard cap). */
export const BURST_SECTION_CAP_MS = POOLS.length * 5 * (CAP_MS + RUN_GRACE_MS);

function poolsWanted(): (typeof POOLS)[number][] {
  const text = process.env.BURST_CHANNELS;
  if (!text) return [...POOLS];
  const wanted = text.split(',').map((n) => POOLS.find((pool) => String(pool.channels) === n.trim()));
  if (wanted.some((pool) => !pool))
    throw new Error(`BURST_CHANNELS must list pools among ${POOLS.map((p) => p.channels).join(', ')}`);
  return wanted as (typeof POOLS)[number][];
}

function runsWanted(): number {
  const text = process.env.BURST_RUNS ?? String(DEFAULT_RUNS);
  if (!/^[1-5]$/.test(text)) throw new Error(`BURST_RUNS must be 1 to 5, not ${JSON.stringify(text)}`);
  return Number(text);
}

function orderWanted(): PairOrder {
  const order = process.env.BURST_ORDER ?? 'random';
  if (order !== 'random' && order !== 'ring')
    throw new Error(`BURST_ORDER must be random or ring, not ${JSON.stringify(order)}`);
  return order;
}

/** Runs one burst in its own process; its figures, or why there are none. */
function runBurst(spec: BurstRunSpec, env: Record<string, string>): Promise<BurstFigures | string> {
  return new Promise((resolve) => {
    const child = fork(fileURLToPath(new URL('./burst-run.ts', import.meta.url)), [], {
      // The lease metrics (one EMF line a lease) and the submissions' info lines are the functions'
      // business, not this section's output: set after the stack's environment, which has its own level.
      env: {
        ...process.env,
        ...env,
        LOG_LEVEL: 'WARN',
        POWERTOOLS_METRICS_DISABLED: 'true',
        // Its workers share the process's one DynamoDB client, where each Lambda invocation has its own.
        DYNAMODB_MAX_SOCKETS: String(2 * spec.concurrency),
        BURST_RUN: JSON.stringify(spec),
      },
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

const perSecond = (n: number, ms: number) => n / (ms / 1000);
const answersOf = (answers: Record<string, number>) =>
  Object.entries(answers)
    .sort(([, a], [, b]) => b - a)
    .map(([code, n]) => `${code} ${n}`)
    .join(', ') || 'none';
/** Transactions a second in the run's ledgers but its last (the one that takes the stragglers): the pool's pace. */
const sustainedRate = (f: BurstFigures) => {
  const full = f.ledgers.slice(0, -1);
  return full.length ? full.reduce((a, b) => a + b, 0) / full.length / (f.spec.closeIntervalMs / 1000) : 0;
};
const load = () =>
  loadavg()
    .map((n) => fixed(n, 1))
    .join(' / ');
const sum = (figures: BurstFigures[], pick: (f: BurstFigures) => number) =>
  figures.reduce((total, f) => total + pick(f), 0);

/**
 * A DynamoDB Local of the run's own, for `run`: DynamoDB Local serialises every table's
 * writes and slows as the tables and streams of earlier runs pile up in its memory (a 256-channel run after
 * six others fell to half the pace it kept on a fresh one), where DynamoDB keeps every table's pace.
 */
async function withOwnDynamoDb<T>(run: (env: Record<string, string>) => Promise<T>): Promise<T> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const dynamo = await startDynamoDbLocal(join(root, '.local', 'dynamodb'));
  try {
    // The run makes its table (useOwnTable, bench/burst-run.ts).
    return await run({
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    });
  } finally {
    await dynamo.stop();
  }
}

/** The section: each pool's runs, each on a ledger and a DynamoDB Local of its own, then the table. */
export async function measureSubmissionBurst(): Promise<void> {
  const pools = poolsWanted();
  const runs = runsWanted();
  const order = orderWanted();
  const measured: Array<{
    channels: number;
    goal: number;
    payments: number;
    figures: BurstFigures[];
    failures: string[];
    loadBefore: string;
    loadAfter: string;
  }> = [];
  for (const { channels, goal } of pools) {
    const payments = channels * CLOSES_PER_RUN;
    const loadBefore = load();
    const figures: BurstFigures[] = [];
    const failures: string[] = [];
    for (let run = 1; run <= runs; run++) {
      const spec: BurstRunSpec = {
        run: `c${channels}r${run}`,
        closeIntervalMs: CLOSE_INTERVAL_MS,
        payments,
        order,
        accounts: ACCOUNTS,
        channels,
        concurrency: submitterConcurrency(channels),
        capMs: CAP_MS,
        redeliveryPauseMs: REDELIVERY_PAUSE_MS,
      };
      const result = await withOwnDynamoDb((env) => runBurst(spec, env));
      if (typeof result === 'string') failures.push(result);
      else figures.push(result);
    }
    measured.push({ channels, goal, payments, figures, failures, loadBefore, loadAfter: load() });
  }

  console.log(
    `\n== 4. Submission burst straight through submitOnce at ${CLOSE_INTERVAL_MS / 1000} s closes (${CLOSES_PER_RUN} ledgers' worth of payments a run between ${ACCOUNTS} accounts, ${order === 'random' ? 'random payer and payee' : 'in a ring'}, as many workers as channels, ${runs} runs a pool)`,
  );
  console.log(
    table(
      [
        'channels',
        'physical limit/s',
        'goal/s',
        'settled/s min',
        'median',
        'max',
        'sustained/s (median)',
        'settled',
        'doubled',
        'lost',
        'false completed',
        'replacements',
        'run CPU % of a core (median)',
        'load avg before',
        'after',
      ],
      measured.map((m) => {
        const rates = m.figures.map((f) => perSecond(f.succeeded, f.wallMs)).sort((a, b) => a - b);
        const cpu = m.figures.map((f) => (100 * f.cpuMs) / f.wallMs);
        return [
          String(m.channels),
          fixed(m.channels / (CLOSE_INTERVAL_MS / 1000), 1),
          fixed(m.goal, 1),
          ...(rates.length
            ? [rates[0], median(rates), rates.at(-1)].map((r) => fixed(r ?? 0, 1))
            : ['-', '-', '-']),
          m.figures.length ? fixed(median(m.figures.map(sustainedRate)), 1) : '-',
          `${sum(m.figures, (f) => f.succeeded)}/${m.payments * m.figures.length}`,
          String(sum(m.figures, (f) => f.doubled)),
          String(sum(m.figures, (f) => f.lost)),
          String(sum(m.figures, (f) => f.falseCompleted)),
          String(sum(m.figures, (f) => f.replacements)),
          cpu.length ? fixed(median(cpu), 0) : '-',
          m.loadBefore,
          m.loadAfter,
        ];
      }),
    ),
  );
  const lines = [
    '',
    `Payment i pays ${PAYMENT_XLM} XLM ${order === 'random' ? `from a random one of ${ACCOUNTS} accounts to another random one (seeded: every run pays the same pairs), so one` : `from account i % ${ACCOUNTS} to the next one, so the`}`,
    `${order === 'random' ? 'payer is in flight several times at once' : 'payers in flight at once are distinct'}; intent bench-burst:<run>:<i>, its transaction built as the gateway builds payments: on`,
    "a channel account submitOnce leases (the payer is the operation's source and signs), fee-bumped by a funding account.",
    'Each run has a ledger of its own (its genesis holds the accounts and channels) in a process of its own, with the pool and',
    `the records in a table of its own; ${CLOSES_PER_RUN} ledgers' worth of payments (channels × ${CLOSES_PER_RUN}), taken in order by as many workers as`,
    'channels, each an at-least-once SQS worker: a payment answered pending is delivered again 1 s later, at most the',
    "ledger-submissions queue's maxReceiveCount times.",
    'settled/s = payments recorded succeeded / wall time (first payment taken -> last worker done), min / median / max over the runs.',
    'physical limit = channels / close interval: a ledger takes one transaction per source, and every source is a channel.',
    "Each run starts at a ledger boundary (it closes one before the first payment). sustained/s = the run's transactions per",
    'ledger over its ledgers but the last, / close interval: the pace while the pool is full, without the close a few',
    'stragglers (a worker that missed a ledger by a moment) need at the end; settled/s pays for that close.',
    'doubled / lost / false completed, from the ledger: every payment each account sent (Horizon, all pages) is tied to its',
    "intent by its transaction's text memo. doubled = intents with more than one payment there; lost = recorded failed with",
    'one there; false completed = recorded succeeded with none there. All must be 0 (summed over the runs).',
    "run CPU = the run process's CPU time over the burst (the workers, submitOnce, the local ledger in the same process) / wall",
    "time: near 100 % the process is saturated; far below it while the load average is above the cores, the machine's",
    "other work held the CPU. Either way the rate is then the CPU's, not the pool's. load avg = 1 / 5 / 15 min, before",
    "and after the pool's runs (the machine is shared). 'no answer' = a submission whose HTTP answer did not come within",
    'LEDGER_TIMEOUT_MS (the worker looks it up by hash and resubmits: nothing is sent twice).',
  ];
  for (const m of measured) {
    const rates = m.figures.map((f) => perSecond(f.succeeded, f.wallMs));
    const met = rates.length > 0 && median(rates) >= m.goal;
    const cpu = m.figures.length ? median(m.figures.map((f) => (100 * f.cpuMs) / f.wallMs)) : 0;
    const load1 = Number(m.loadAfter.split(' / ')[0]);
    const cores = availableParallelism();
    const reason = met
      ? 'goal met'
      : load1 > cores
        ? `goal NOT met: the machine's CPU was oversubscribed (load ${fixed(load1, 1)} on ${cores} cores), the run process got ${fixed(cpu, 0)} % of a core`
        : cpu >= 85
          ? `goal NOT met: the run process was CPU-saturated (${fixed(cpu, 0)} % of a core)`
          : `goal NOT met (run CPU ${fixed(cpu, 0)} % of a core, load ${fixed(load1, 1)} on ${cores} cores): see the answers below`;
    lines.push(`${m.channels} channels: ${reason}.`);
    for (const f of m.figures) {
      lines.push(
        `  ${f.spec.run}: ${f.succeeded}/${f.spec.payments} in ${fixed(f.wallMs / 1000, 1)} s; answers: ${answersOf(f.answers)};` +
          ` redeliveries ${f.redeliveries}, failed ${f.failed}, pending ${f.pending}, not taken ${f.notTaken}, most envelopes ${f.mostEnvelopes},` +
          ` misnamed ${f.misnamed}, stray ${f.stray}; transactions per ledger: ${f.ledgers.join(' ')}${f.firstError ? `; first error: ${f.firstError}` : ''}.`,
      );
    }
    for (const failure of m.failures) lines.push(`  a run failed: ${failure}`);
  }
  console.log(lines.join('\n'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await measureSubmissionBurst();
