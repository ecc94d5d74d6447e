// Business metrics: what integrators feel (payments accepted and settled, webhooks delivered, tokens
// issued), as CloudWatch embedded metric format lines on stdout (Powertools Metrics). CloudWatch Logs
// turns each line into metric values; no function ever calls the CloudWatch API, so a metric costs the
// hot path one write to stdout. Each fact is emitted once, where it happens (a service), and published
// at once as a line of its own: a batch worker handles messages side by side, and a line per fact keeps
// one message's dimensions off another's.
//
// Dimensions are bounded sets (a type, a status, an error code); never a tenant or a record, which
// would make a metric per tenant. Those go in the same line as properties (EMF metadata), where Logs
// Insights reads them: docs/queries/*.sql. Every name lives here: the dashboard and the alarms
// (infra/constructs/observability.ts) and `admin metrics` read them from this module.
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger } from './log.ts';

/** Every metric of the service, by fact. */
export const metricNames = {
  paymentAccepted: 'PaymentAccepted',
  paymentSettled: 'PaymentSettled',
  settlementLatency: 'SettlementLatency',
  paymentDeliveries: 'PaymentDeliveries',
  paymentEnvelopes: 'PaymentEnvelopes',
  transitionRefused: 'TransitionRefused',
  owedPayments: 'OwedPayments',
  owedOldestAge: 'OwedOldestAge',
  channelsInUse: 'ChannelsInUse',
  channelWaits: 'ChannelWaits',
  webhookDelivery: 'WebhookDelivery',
  webhookAttemptAtSuccess: 'WebhookAttemptAtSuccess',
  webhookDeliveryLatency: 'WebhookDeliveryLatency',
  webhookMarkedSlow: 'WebhookMarkedSlow',
  tokenIssued: 'TokenIssued',
  tokenRefused: 'TokenRefused',
  requestLimitReached: 'RequestLimitReached',
  noticeHeld: 'NoticeHeld',
  sandboxReserve: 'SandboxReserve',
} as const;

export type MetricName = (typeof metricNames)[keyof typeof metricNames];

/** The stage's namespace: each stage's metrics apart, whatever account they share. */
export const metricsNamespaceOf = (service: string, stage: string) => `${service}/${stage}`;

/** The dimension Powertools puts on every metric (POWERTOOLS_SERVICE_NAME). */
export const SERVICE_DIMENSION = 'service';

/**
 * A webhook attempt's outcome (WebhookDelivery's `outcome`): the answer's class, no answer in time,
 * `blocked` by the URL policy, or `unreachable` (any other reason no answer came).
 */
export type DeliveryOutcome = '2xx' | '3xx' | '4xx' | '5xx' | 'timeout' | 'blocked' | 'unreachable';

/** Why a token was refused (TokenRefused's `reason`). */
export type TokenRefusal = 'invalid_credentials' | 'rate_limited';

let root: Metrics | undefined;

/** Built at the first fact, from the function's environment (STAGE, POWERTOOLS_SERVICE_NAME). */
function rootMetrics(): Metrics {
  const serviceName = process.env.POWERTOOLS_SERVICE_NAME ?? 'payments-gateway';
  root ??= new Metrics({
    serviceName,
    // A rollup repeats names of its full set, with the same values; Powertools warns of every such
    // line ("defined as both"), which says nothing here: its notes go to debug.
    logger: {
      debug: (message: string) => logger.debug(message),
      info: (message: string) => logger.info(message),
      warn: (message: string) => logger.debug(message),
      error: (message: string) => logger.error(message),
    },
    namespace: metricsNamespaceOf(serviceName, process.env.STAGE ?? 'local'),
  });
  return root;
}

type Dimensions = Record<string, string>;
/** The record, tenant and anything else a reader filters by: in the line, never a dimension. */
type Properties = Record<string, string | number | null | undefined>;

/**
 * One value, published now as its own line: `dimensions` is its full set, and each of `rollups` (a
 * subset of its names) another set of the same value, so an alarm can read a total (alarms take no
 * SEARCH) while the dashboard splits it.
 */
function emit(
  name: MetricName,
  unit: (typeof MetricUnit)[keyof typeof MetricUnit],
  value: number,
  dimensions: Dimensions,
  properties: Properties,
  rollups: readonly (readonly string[])[] = [],
): void {
  const line = rootMetrics().singleMetric();
  for (const names of [Object.keys(dimensions), ...rollups])
    line.addDimensions(Object.fromEntries(names.map((key) => [key, dimensions[key] as string])));
  for (const [key, property] of Object.entries(properties))
    if (property !== undefined && property !== null) line.addMetadata(key, String(property));
  // Last: a single-metric instance publishes when its metric is added.
  line.addMetric(name, unit, value);
}

// ── payments ─────────────────────────────────────────────────────────────────────────────────────

interface PaymentFact {
  transactionRecordId: string;
  associationId: string;
  environment: string;
  transactionType: string;
}

const paymentProperties = (fact: PaymentFact): Properties => ({
  transactionRecordId: fact.transactionRecordId,
  associationId: fact.associationId,
});

export const countAccepted = (fact: PaymentFact): void =>
  emit(
    metricNames.paymentAccepted,
    MetricUnit.Count,
    1,
    { environment: fact.environment, type: fact.transactionType },
    paymentProperties(fact),
    [[]],
  );

/**
 * A record moved to completed or failed: its count (by status, type and error code; a total by status
 * for the failure rate), the time from its 202 (createdAt) to now, and how many deliveries of its
 * message and ledger envelopes it took. P2P payments (execution.ts) and ramps (payments/ramps/execution.ts) alike.
 */
export function countSettled(
  fact: PaymentFact & {
    status: 'completed' | 'failed';
    errorCode: string | null;
    createdAt: string;
    /** Null where no one message carries it (a ramp's steps and its provider's notifications). */
    deliveries: number | null;
    envelopes: number | null;
  },
  now: Date,
): void {
  const properties = { ...paymentProperties(fact), type: fact.transactionType, status: fact.status };
  emit(
    metricNames.paymentSettled,
    MetricUnit.Count,
    1,
    { status: fact.status, type: fact.transactionType, errorCode: fact.errorCode ?? 'none' },
    { ...paymentProperties(fact), environment: fact.environment },
    [['status']],
  );
  emit(
    metricNames.settlementLatency,
    MetricUnit.Milliseconds,
    now.getTime() - Date.parse(fact.createdAt),
    {},
    properties,
  );
  if (fact.deliveries !== null)
    emit(metricNames.paymentDeliveries, MetricUnit.Count, fact.deliveries, {}, properties);
  if (fact.envelopes !== null)
    emit(metricNames.paymentEnvelopes, MetricUnit.Count, fact.envelopes, {}, properties);
}

/**
 * An event a record's lifecycle table refused in its state (lib/payments/lifecycle): a late or duplicate
 * report, or a contradiction (a collection reported failed after it completed) for operations to look at.
 */
export const countTransitionRefused = (
  fact: PaymentFact,
  state: string,
  event: string,
  source: string,
): void =>
  emit(
    metricNames.transitionRefused,
    MetricUnit.Count,
    1,
    { type: fact.transactionType, event },
    { ...paymentProperties(fact), state, source },
    [[]],
  );

/**
 * Money the platform owes (refunds, collected on-ramps' and receipts' credits not yet landed), read by
 * the reconciler's run: how many records, and the age of the oldest in seconds (its alarm pages).
 */
export function countOwed(environment: string, owed: number, oldestAgeSeconds: number): void {
  emit(metricNames.owedPayments, MetricUnit.Count, owed, { environment }, {}, [[]]);
  emit(metricNames.owedOldestAge, MetricUnit.Seconds, oldestAgeSeconds, { environment }, {}, [[]]);
}

/** A lease of the channel pool: channels held after it, or a wait (none was free). */
export function countChannelLease(environment: string, inUse: number, size: number, waited: boolean): void {
  emit(metricNames.channelsInUse, MetricUnit.Count, inUse, { environment }, { poolSize: size });
  if (waited) emit(metricNames.channelWaits, MetricUnit.Count, 1, { environment }, { poolSize: size });
}

// ── webhooks ─────────────────────────────────────────────────────────────────────────────────────

interface DeliveryFact {
  associationId: string;
  webhookId: string;
  deliveryId: string;
  eventId: string;
  eventType: string;
  /** The record the event is about, when it is a transaction record (its payment's id across hops). */
  transactionRecordId?: string | undefined;
}

const deliveryProperties = (fact: DeliveryFact): Properties => ({
  associationId: fact.associationId,
  webhookId: fact.webhookId,
  deliveryId: fact.deliveryId,
  eventId: fact.eventId,
  eventType: fact.eventType,
  transactionRecordId: fact.transactionRecordId,
});

/** One attempt's outcome; on success, its attempt number and the time since the event was created. */
export function countDelivery(
  fact: DeliveryFact & { outcome: DeliveryOutcome; attempt: number; eventCreatedAt: string },
  now: Date,
): void {
  const properties = { ...deliveryProperties(fact), attempt: fact.attempt };
  emit(metricNames.webhookDelivery, MetricUnit.Count, 1, { outcome: fact.outcome }, properties, [[]]);
  if (fact.outcome !== '2xx') return;
  emit(metricNames.webhookAttemptAtSuccess, MetricUnit.Count, fact.attempt, {}, properties);
  emit(
    metricNames.webhookDeliveryLatency,
    MetricUnit.Milliseconds,
    now.getTime() - Date.parse(fact.eventCreatedAt),
    {},
    properties,
  );
}

export const countMarkedSlow = (fact: DeliveryFact): void =>
  emit(metricNames.webhookMarkedSlow, MetricUnit.Count, 1, {}, deliveryProperties(fact));

// ── auth ─────────────────────────────────────────────────────────────────────────────────────────

export const countTokenIssued = (environment: string, applicationId: string): void =>
  emit(metricNames.tokenIssued, MetricUnit.Count, 1, { environment }, { applicationId });

export const countTokenRefused = (environment: string, applicationId: string, reason: TokenRefusal): void =>
  emit(metricNames.tokenRefused, MetricUnit.Count, 1, { environment, reason }, { applicationId });

/**
 * A caller's window of a route group found full (lib/limits): once per window and execution environment,
 * not once per refused request, so a flood costs a log line a window, not one a request. The group is a
 * dimension (the five of lib/limits/policies.ts and `notifications`); the caller (`app#…`,
 * `connector#…`) a property, for Logs Insights.
 */
export const countRequestLimitReached = (group: string, subject: string, quota: number): void =>
  emit(metricNames.requestLimitReached, MetricUnit.Count, 1, { group }, { subject, quota }, [[]]);

// ── notices ──────────────────────────────────────────────────────────────────────────────────────

/**
 * Why a notice (or a sandbox recipient's code) was not sent (NoticeHeld's `reason`): the tenant's daily
 * cap was reached, or a sandbox recipient nobody verified.
 */
export type NoticeHold = 'daily_cap' | 'recipient_not_verified';

export const countNoticeHeld = (
  fact: { environment: string; channel: string; associationId: string },
  reason: NoticeHold,
): void =>
  emit(
    metricNames.noticeHeld,
    MetricUnit.Count,
    1,
    { environment: fact.environment, reason },
    { associationId: fact.associationId, channel: fact.channel },
    [[]],
  );

// ── sandbox reserves ─────────────────────────────────────────────────────────────────────────────

/**
 * A sandbox platform account's balance after a top-up run (lib/ledger/sandbox-reserves.ts): `account`
 * is funding (XLM) or settlement (a platform-issued asset); the account's role is a property.
 */
export const countSandboxReserve = (
  account: 'funding' | 'settlement',
  asset: string,
  balance: string,
  role: string,
) => emit(metricNames.sandboxReserve, MetricUnit.NoUnit, Number(balance), { account, asset }, { role });
