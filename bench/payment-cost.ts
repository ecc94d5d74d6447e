// Section 7's cost of a payment (issue #40): what the burst's runs counted (bench/aws-calls.ts) per settled
// payment, end to end (the API, the outbox, the submitter, the event sources' receives and deletes, one
// webhook): AWS calls by operation and by function, DynamoDB's write and read units (the table and each
// index apart), and what they cost at AWS's prices (bench/cost-model.ts) beside the floor.
import { functionMemory, memoryOf } from '../infra/function-memory.ts';
import { type CallCounts, OUTSIDE, totalOf as unitsOf } from './aws-calls.ts';
import {
  billedCalls,
  COST_COLUMNS,
  costRows,
  floorOf,
  metricsPerMonth,
  type PaymentCounts,
  paymentCost,
} from './cost-model.ts';
import type { PaymentBurstFigures, PaymentBurstSpec } from './payment-burst-run.ts';
import { fixed, table } from './stats.ts';

/** Issue #40's goals, per settled payment. */
export const CALLS_GOAL = 12;
export const WRITE_UNITS_GOAL = 12;
/** What the issue measured before (no webhook), and this count's first run (c62d305, one webhook, 2 loaded cores). */
const BEFORE =
  'issue #40: 25.0-25.7 calls without a webhook; c62d305 (one webhook): 38.3 calls, 46.3 write units, 14.5 read units';

/** The stack's functions by the name an invocation carries (`payments`, `ledger-submitter`) → bundle name. */
export function bundleOf(name: string): string {
  if (name.includes('/') || name === OUTSIDE) return name;
  return `workers/${name}` in functionMemory ? `workers/${name}` : `api/${name}`;
}

/**
 * Lambda bills an invocation's wall time, which this shared machine's loaded stack stretches many times
 * over (every function, DynamoDB Local and the ledger on 2 cores): the model's duration of an invocation
 * is instead its CPU (section 7b's p50 per invocation, this machine's last printed figures) plus, for each
 * call it made, a typical in-region answer time. POST /transactions waits for the ledger: half the
 * network's 5 s close on average.
 */
const CPU_MS: Record<string, number> = {
  'api/payments': 12.0,
  'streams/outbox': 1.8,
  'workers/ledger-submitter': 24.3,
  'workers/webhook-dispatcher': 4.0,
  'workers/webhook-deliverer': 10.0,
  'schedules/reconciler': 29.5,
};
const ANSWER_MS: Array<[RegExp, number]> = [
  [/^DynamoDB\./, 5],
  [/^SQS\./, 10],
  [/^secretsmanager\./, 10],
  [/^POST \/transactions$/, 2500],
  [/^GET \//, 30],
  [/^POST \/$/, 100],
];
const answerMs = (call: string) => ANSWER_MS.find(([pattern]) => pattern.test(call))?.[1] ?? 10;

/** An invocation's modelled duration: its CPU and its calls' answers (`calls` per invocation). */
export const modelledMs = (fn: string, calls: CallCounts): number =>
  (CPU_MS[fn] ?? 10) + Object.entries(calls).reduce((sum, [call, n]) => sum + n * answerMs(call), 0);

const perPayment = (counts: CallCounts, settled: number) =>
  Object.fromEntries(Object.entries(counts).map(([name, n]) => [name, n / settled]));

/**
 * What a run counted, as the cost model takes it: its calls and DynamoDB units by function, what its
 * functions printed, the records it settled and the requests it made through the gateway.
 */
export type CountedRun = Pick<PaymentBurstFigures, 'calls' | 'tally' | 'logs' | 'completed' | 'failed'> & {
  apiRequests: number;
};

/** A burst's run as the cost model takes it: its gateway requests are the payments themselves (one POST each), not the bench's reads of the records. */
export const countedBurst = (f: PaymentBurstFigures): CountedRun => ({
  ...f,
  apiRequests: f.accepted + f.refused,
});

/** One run's (or several runs' summed) counts as the cost model takes them, per settled payment. */
export function paymentCountsOf(runs: CountedRun[]): PaymentCounts {
  const settled = runs.reduce((sum, f) => sum + f.completed + f.failed, 0);
  const calls: CallCounts = {};
  const functions: PaymentCounts['functions'] = {};
  let writeUnits = 0;
  let readUnits = 0;
  let logBytes = 0;
  for (const f of runs) {
    for (const [name, n] of Object.entries(f.calls)) calls[name] = (calls[name] ?? 0) + n;
    writeUnits += unitsOf(f.tally.units.write) + f.tally.units.conditionFailed;
    readUnits += unitsOf(f.tally.units.read);
    logBytes += f.logs.bytes;
    for (const [name, of] of Object.entries(f.tally.functions)) {
      if (name === OUTSIDE || of.invocations === 0) continue;
      const fn = bundleOf(name);
      const held = functions[fn] ?? { invocations: 0, meanMs: 0 };
      const ms =
        held.meanMs * held.invocations +
        of.invocations * modelledMs(fn, perPayment(of.counts, of.invocations));
      held.invocations += of.invocations;
      held.meanMs = ms / held.invocations;
      functions[fn] = held;
    }
  }
  for (const held of Object.values(functions)) held.invocations /= settled;
  const apiRequests = runs.reduce((sum, f) => sum + f.apiRequests, 0) / settled;
  return {
    calls: perPayment(calls, settled),
    writeUnits: writeUnits / settled,
    readUnits: readUnits / settled,
    functions,
    apiRequests,
    logBytes: logBytes / settled,
  };
}

const met = (value: number, goal: number) => (value <= goal ? 'met' : 'NOT MET');
const sideLine = (side: Record<string, number>, settled: number) =>
  Object.entries(side)
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${fixed(n / settled, 1)}`)
    .join(', ');

/** The section's cost lines: per run, then by function and in dollars over the immediate runs. */
export function paymentCostLines(
  results: Array<{ spec: PaymentBurstSpec; figures: PaymentBurstFigures | string }>,
): string[] {
  const runs = results.flatMap(({ spec, figures }) =>
    typeof figures === 'string' ? [] : [{ spec, f: figures }],
  );
  if (runs.length === 0) return [];
  const lines = [
    '',
    `7d. Cost per settled payment (issue #40), end to end: the API, the outbox, the submitter, the event sources' SQS receives and deletes${
      runs[0]?.spec.webhook
        ? ', one webhook (a registration taking payment.completed)'
        : ' (no webhook: PAYMENT_BURST_WEBHOOK=0)'
    }.`,
    `Calls: every billed AWS request (DynamoDB, SQS, Secrets Manager…; not DynamoDB Streams' reads, free to Lambda) + the API request.`,
    `Units: DynamoDB's ConsumedCapacity (INDEXES) of every call (lib/db/consumed-capacity.ts), a failed conditional write as 1.`,
  ];
  const rows = runs.map(({ spec, f }) => {
    const settled = f.completed + f.failed;
    const counts = paymentCountsOf([countedBurst(f)]);
    const calls = billedCalls(counts);
    return [
      spec.closeIntervalMs > 0 ? `every ${spec.closeIntervalMs} ms` : 'at once',
      String(settled),
      fixed(calls, 1),
      met(calls, CALLS_GOAL),
      fixed(counts.writeUnits, 1),
      met(counts.writeUnits, WRITE_UNITS_GOAL),
      fixed((f.tally.units.write.table ?? 0) / settled, 1),
      fixed(counts.writeUnits - (f.tally.units.write.table ?? 0) / settled, 1),
      fixed(counts.readUnits, 1),
      spec.webhook ? `${f.webhooks.received}${f.webhooks.capped ? '*' : ''}` : '-',
    ];
  });
  lines.push(
    table(
      [
        'ledger closes',
        'settled',
        `calls/payment (<= ${CALLS_GOAL})`,
        '',
        `write units (<= ${WRITE_UNITS_GOAL})`,
        '',
        'of them table',
        'indexes',
        'read units',
        'webhooks',
      ],
      rows,
    ),
  );
  lines.push(`before: ${BEFORE}.`);
  for (const { spec, f } of runs) {
    const settled = f.completed + f.failed;
    lines.push(
      `closes ${spec.closeIntervalMs > 0 ? `every ${spec.closeIntervalMs} ms` : 'at once'}: write units ${sideLine(f.tally.units.write, settled)}` +
        ` (by operation: ${sideLine(f.tally.units.writeByCommand, settled)}; failed conditions ${fixed(f.tally.units.conditionFailed / settled, 2)});` +
        ` read units ${sideLine(f.tally.units.read, settled)}.`,
    );
  }
  const immediate = runs.filter(({ spec }) => spec.closeIntervalMs === 0).map(({ f }) => f);
  const chosen = immediate.length ? immediate : runs.map(({ f }) => f);
  lines.push(
    `By function, per settled payment (${immediate.length ? 'the immediate runs' : 'every run'} together):`,
    ...costByFunctionLines(chosen.map(countedBurst), floorOf, 'P2P payments'),
  );
  return lines;
}

/**
 * What the runs counted by function (invocations, calls, units), then in US dollars per million of `what`
 * beside the floor `floorOf` makes of them.
 */
export function costByFunctionLines(
  chosen: CountedRun[],
  floorOfCounts: (measured: PaymentCounts) => PaymentCounts,
  what: string,
): string[] {
  const settled = chosen.reduce((sum, f) => sum + f.completed + f.failed, 0);
  const byFunction = new Map<
    string,
    { counts: CallCounts; write: number; read: number; invocations: number; ms: number }
  >();
  for (const f of chosen)
    for (const [name, of] of Object.entries(f.tally.functions)) {
      const held = byFunction.get(bundleOf(name)) ?? { counts: {}, write: 0, read: 0, invocations: 0, ms: 0 };
      for (const [call, n] of Object.entries(of.counts)) held.counts[call] = (held.counts[call] ?? 0) + n;
      held.write += unitsOf(of.units.write) + of.units.conditionFailed;
      held.read += unitsOf(of.units.read);
      held.invocations += of.invocations;
      held.ms += of.invocationMs;
      byFunction.set(bundleOf(name), held);
    }
  const counts = paymentCountsOf(chosen);
  const memory = (fn: string) => memoryOf(fn, functionMemory);
  const measured = paymentCost(counts, memory);
  const floor = paymentCost(floorOfCounts(counts), memory);
  const metricSeries = Math.max(0, ...chosen.map((f) => f.logs.metricSeries));
  return [
    table(
      [
        'function',
        'invocations',
        'wall ms here',
        'modelled ms',
        'AWS calls',
        'write units',
        'read units',
        'calls',
      ],
      [...byFunction.entries()].map(([name, held]) => {
        const aws = Object.entries(held.counts).filter(([call]) => call.includes('.'));
        return [
          name,
          fixed(held.invocations / settled, 2),
          held.invocations ? fixed(held.ms / held.invocations, 1) : '-',
          held.invocations ? fixed(modelledMs(name, perPayment(held.counts, held.invocations)), 1) : '-',
          fixed(aws.reduce((sum, [, n]) => sum + n, 0) / settled, 2),
          fixed(held.write / settled, 2),
          fixed(held.read / settled, 2),
          Object.entries(held.counts)
            .sort((a, b) => b[1] - a[1])
            .map(([call, n]) => `${call} ${fixed(n / settled, 2)}`)
            .join(', '),
        ];
      }),
    ),
    `US dollars per million ${what} (bench/cost-model.ts, prices of bench/aws-prices.ts), beside the floor (bench/cost-model.ts):`,
    table(COST_COLUMNS, costRows(measured, floor)),
    `Lambda's duration is each invocation's modelled time (its CPU and its calls' answers, bench/payment-cost.ts) at the function's memory`,
    `in infra/function-memory.ts; the submitter's includes half a 5 s ledger close per submission. Metric series the functions named: ${metricSeries} in a run, ${fixed(metricsPerMonth(metricSeries), 2)} USD a month whatever the traffic.`,
  ];
}
