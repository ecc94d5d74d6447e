// What a payment costs on AWS, from what the bench counted (issue #40): requests by service, GB-seconds
// at each function's configured memory (infra/function-memory.ts), DynamoDB's write and read units, SQS
// requests, the edge's and API Gateway's requests, log bytes and traces, converted at the prices of
// bench/aws-prices.ts into US dollars per million payments, a line per service and item, beside the
// floor: the same payment made with only the calls it cannot do without.
//
// Pure arithmetic (test/unit/cost-model.test.ts holds it to known counts and known dollars): the bench
// hands it a measured payment (section 7: bench/payment-burst.ts) and prints `costTable`.
import { costOf, type Price, prices, XRAY_SAMPLED_SHARE } from './aws-prices.ts';

/** One payment's consumption: each figure per payment (a mean over a run). */
export interface PaymentCounts {
  /** AWS calls by name as bench/aws-calls.ts names them (`DynamoDB.GetItem`, `SQS.SendMessage`…). */
  calls: Record<string, number>;
  /** DynamoDB's units, the table's and its indexes' together. */
  writeUnits: number;
  readUnits: number;
  /** Invocations of each function (bundle names: `api/payments`, `workers/ledger-submitter`…) and their mean wall ms. */
  functions: Record<string, { invocations: number; meanMs: number }>;
  /** Requests through the edge (CloudFront, the web ACL) and API Gateway. */
  apiRequests: number;
  /** What the functions print (their JSON lines and EMF metric lines), bytes. */
  logBytes: number;
}

export interface CostLine {
  service: string;
  item: string;
  /** Of the item's unit, per payment. */
  perPayment: number;
  unit: string;
  /** US dollars per million payments. */
  usdPerMillion: number;
}

/**
 * Lambda's own lines per invocation (START, END, and REPORT with its X-Ray segment ids), which the local
 * stack does not print: about 300 bytes an invocation where a stage keeps them (systemLogLevel INFO).
 * Production's systemLogLevel is WARN (infra/stage.ts), which drops them: the model prices production's
 * bill, so it counts none.
 */
export const PLATFORM_LOG_BYTES_PER_INVOCATION = 0;
/** Lambda bills duration by the millisecond, at least 1 ms. */
const billedMs = (ms: number) => Math.max(1, Math.ceil(ms));

const line = (service: string, item: string, price: Price, perPayment: number): CostLine => ({
  service,
  item,
  perPayment,
  unit: price.unit.split(' (')[0] ?? price.unit,
  usdPerMillion: costOf(price, perPayment * 1_000_000),
});

const callsOf = (counts: PaymentCounts, prefix: string) =>
  Object.entries(counts.calls)
    .filter(([name]) => name.startsWith(prefix))
    .reduce((sum, [, n]) => sum + n, 0);

/**
 * The payment's cost by service and item. `memoryOf` gives a function's configured MB (the stack's:
 * infra/function-memory.ts). SQS messages are each under 64 KB (a webhook event carries one record's
 * image, a few KB), so each SQS call is one billed request. DynamoDB Streams' reads by Lambda are free;
 * the ledger's requests (Horizon) are not AWS's and not priced here.
 */
export function paymentCost(counts: PaymentCounts, memoryOf: (fn: string) => number): CostLine[] {
  const functions = Object.entries(counts.functions);
  const invocations = functions.reduce((sum, [, f]) => sum + f.invocations, 0);
  const gbSeconds = functions.reduce(
    (sum, [fn, f]) => sum + (f.invocations * billedMs(f.meanMs) * memoryOf(fn)) / 1024 / 1000,
    0,
  );
  const logBytes = counts.logBytes + invocations * PLATFORM_LOG_BYTES_PER_INVOCATION;
  return [
    line('DynamoDB', 'writes', prices.dynamoWriteRequestUnit, counts.writeUnits),
    line('DynamoDB', 'reads', prices.dynamoReadRequestUnit, counts.readUnits),
    line('Lambda', 'invocations', prices.lambdaRequest, invocations),
    line('Lambda', 'duration', prices.lambdaGbSecond, gbSeconds),
    line('SQS', 'requests', prices.sqsRequest, callsOf(counts, 'SQS.')),
    line('API Gateway', 'HTTP API requests', prices.apiGatewayHttpRequest, counts.apiRequests),
    line('CloudFront', 'HTTPS requests', prices.cloudFrontHttpsRequest, counts.apiRequests),
    line('WAF', 'requests', prices.wafRequest, counts.apiRequests),
    line('CloudWatch', 'log ingestion', prices.logsIngestedGb, logBytes / 1024 ** 3),
    line('X-Ray', 'traces (default sampling)', prices.xrayTrace, invocations * XRAY_SAMPLED_SHARE),
  ];
}

export const totalOf = (lines: CostLine[]): number => lines.reduce((sum, l) => sum + l.usdPerMillion, 0);

/** Monthly, whatever the traffic: the metric series the functions' EMF lines name. */
export const metricsPerMonth = (series: number): number => costOf(prices.metricMonth, series);

/** A month of payments at `perSecond`, in US dollars, from the cost of a million. */
export const monthlyAt = (perSecond: number, usdPerMillion: number): number =>
  (perSecond * 30 * 24 * 3600 * usdPerMillion) / 1_000_000;

/**
 * The floor of a P2P payment with one webhook: what it cannot do without. One request through the edge
 * and API Gateway to one invocation that writes the record once (conditional put: the table and the one
 * index that lists it, an item under 1 KB); its insert, through the stream (free) and the router (one
 * invocation per batch of 25 changes), sends one message to the submitter (send, receive, delete); the
 * submitter reads the record (consistent, 1 unit), persists the envelope before submitting (1 unit) and
 * moves the record to completed (table and index, 2 units); its change sends one message to the deliverer
 * (send, receive, delete), whose one invocation posts the webhook. Each function's duration is the run's.
 */
export function floorOf(measured: PaymentCounts): PaymentCounts {
  const ms = (fn: string) => measured.functions[fn]?.meanMs ?? 0;
  return {
    calls: {
      'DynamoDB.PutItem': 2,
      'DynamoDB.UpdateItem': 1,
      'DynamoDB.GetItem': 1,
      'SQS.SendMessage': 2,
      'SQS.ReceiveMessage': 2,
      'SQS.DeleteMessageBatch': 2,
    },
    writeUnits: 2 + 1 + 2,
    readUnits: 1,
    functions: {
      'api/payments': { invocations: 1, meanMs: ms('api/payments') },
      'streams/outbox': { invocations: 2 / 25, meanMs: ms('streams/outbox') },
      'workers/ledger-submitter': { invocations: 1, meanMs: ms('workers/ledger-submitter') },
      'workers/webhook-deliverer': { invocations: 1, meanMs: ms('workers/webhook-deliverer') },
    },
    apiRequests: 1,
    logBytes: 0,
  };
}

/**
 * The floor of an off-ramp with one webhook: the P2P floor's path (bench/cost-model.ts floorOf) and what
 * an off-ramp cannot do without beside it. Its quote through the gateway (one put, an item under 1 KB);
 * the acceptance reads the quote and claims it in the same conditional put as the record (a transaction
 * of two, 2 units each); the submitter reads the record, persists the envelope, lands the ledger leg and
 * instructs the payout (the provider's API, not AWS's), moving the record to processing (table and index);
 * the provider's notification through the gateway moves it to completed (one conditional update, table
 * and index); that change sends the webhook's message (send, receive, delete). How many notifications a
 * provider sends is its protocol's, not ours: the floor takes the measured requests and provider-route
 * invocations as they are.
 */
export function offrampFloorOf(measured: PaymentCounts): PaymentCounts {
  const ms = (fn: string) => measured.functions[fn]?.meanMs ?? 0;
  return {
    calls: {
      'DynamoDB.PutItem': 2,
      'DynamoDB.TransactWriteItems': 1,
      'DynamoDB.UpdateItem': 2,
      'DynamoDB.GetItem': 2,
      'SQS.SendMessage': 2,
      'SQS.ReceiveMessage': 2,
      'SQS.DeleteMessageBatch': 2,
    },
    writeUnits: 1 + 4 + 1 + 2 + 2,
    readUnits: 2,
    functions: {
      'api/quotes': { invocations: 1, meanMs: ms('api/quotes') },
      'api/payments': { invocations: 1, meanMs: ms('api/payments') },
      'api/providers': {
        invocations: measured.functions['api/providers']?.invocations ?? 1,
        meanMs: ms('api/providers'),
      },
      'streams/outbox': { invocations: 3 / 25, meanMs: ms('streams/outbox') },
      'workers/ledger-submitter': { invocations: 1, meanMs: ms('workers/ledger-submitter') },
      'workers/webhook-deliverer': { invocations: 1, meanMs: ms('workers/webhook-deliverer') },
    },
    apiRequests: Math.max(3, measured.apiRequests),
    logBytes: 0,
  };
}

/** The calls a payment makes that AWS bills (DynamoDB, SQS, Secrets Manager…; not DynamoDB Streams' reads). */
export const billedCalls = (counts: PaymentCounts): number =>
  Object.entries(counts.calls)
    .filter(([name]) => name.includes('.') && !name.startsWith('DynamoDBStreams.'))
    .reduce((sum, [, n]) => sum + n, 0) + counts.apiRequests;

const money = (usd: number) => (usd >= 100 ? usd.toFixed(0) : usd >= 1 ? usd.toFixed(2) : usd.toFixed(3));

/** The cost lines of a measured payment beside its floor's, as printed rows (US dollars per million). */
export function costRows(measured: CostLine[], floor: CostLine[]): string[][] {
  const rows = measured.map((m, i) => {
    const f = floor[i] as CostLine;
    return [
      `${m.service}: ${m.item}`,
      `${m.perPayment.toPrecision(3)} ${m.unit}`,
      money(m.usdPerMillion),
      `${f.perPayment.toPrecision(3)}`,
      money(f.usdPerMillion),
    ];
  });
  rows.push(['total', '', money(totalOf(measured)), '', money(totalOf(floor))]);
  return rows;
}

export const COST_COLUMNS = [
  'service: item',
  'per payment',
  'USD / million',
  'floor per payment',
  'floor USD / million',
];
