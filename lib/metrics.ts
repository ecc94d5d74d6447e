// Business metrics: what integrators feel (payments accepted and settled, webhooks delivered, tokens
// issued), as CloudWatch embedded metric format (EMF) lines on stdout. CloudWatch Logs turns each line
// into metric values; no function ever calls the CloudWatch API, so a metric costs the hot path one
// write to stdout. Each fact is emitted once, where it happens (a service), and published at once as a
// line of its own: a batch worker handles messages side by side, and a line per fact keeps one
// message's dimensions off another's. A fact with several values (a settlement's count, latency,
// deliveries and envelopes) is one line with a directive per dimension shape, not a line per value:
// CloudWatch bills the line's bytes at ingestion, and the record's ids would be repeated in each.
// Powertools' single-metric lines hold one directive, so the lines are written here.
//
// Dimensions are bounded sets (a type, a status, an error code); never a tenant or a record, which
// would make a metric per tenant. Those go in the same line as properties (EMF metadata), where Logs
// Insights reads them: docs/queries/*.sql. Every name lives here: the dashboard and the alarms
// (infra/constructs/observability.ts) and `admin metrics` read them from this module.
import { MetricUnit } from '@aws-lambda-powertools/metrics';

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

type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];
type Dimensions = Record<string, string>;
/** The record, tenant and anything else a reader filters by: in the line, never a dimension. */
type Properties = Record<string, string | number | null | undefined>;

/**
 * A value of a line: `sets` are the dimension sets it is published under, each a subset of the line's
 * dimension names (`service` is added to each; [] is `service` alone), so an alarm can read a total
 * (alarms take no SEARCH) while the dashboard splits it.
 */
interface Value {
  name: MetricName;
  unit: Unit;
  value: number;
  sets: readonly (readonly string[])[];
}

/** One EMF line, published now: a directive per distinct `sets`, every value and name at its root. */
function publish(values: readonly Value[], dimensions: Dimensions, properties: Properties): void {
  const service = process.env.POWERTOOLS_SERVICE_NAME ?? 'payments-gateway';
  const namespace = metricsNamespaceOf(service, process.env.STAGE ?? 'local');
  const directives = new Map<string, { Namespace: string; Dimensions: string[][]; Metrics: object[] }>();
  for (const { name, unit, sets } of values) {
    const unique = [
      ...new Map(sets.map((names) => [names.join(','), [SERVICE_DIMENSION, ...names]])).values(),
    ];
    const key = JSON.stringify(unique);
    const directive = directives.get(key) ?? { Namespace: namespace, Dimensions: unique, Metrics: [] };
    directive.Metrics.push({ Name: name, Unit: unit });
    directives.set(key, directive);
  }
  const line: Record<string, unknown> = {
    _aws: { Timestamp: Date.now(), CloudWatchMetrics: [...directives.values()] },
  };
  for (const [key, property] of Object.entries(properties))
    if (property !== undefined && property !== null) line[key] = String(property);
  Object.assign(line, { [SERVICE_DIMENSION]: service }, dimensions);
  for (const { name, value } of values) line[name] = value;
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** A value published under `service` alone. */
const alone = (name: MetricName, unit: Unit, value: number): Value => ({ name, unit, value, sets: [[]] });

/** One value as a line of its own: `dimensions` is its full set, each of `rollups` another set of it. */
const emit = (
  name: MetricName,
  unit: Unit,
  value: number,
  dimensions: Dimensions,
  properties: Properties,
  rollups: readonly (readonly string[])[] = [],
): void =>
  publish([{ name, unit, value, sets: [Object.keys(dimensions), ...rollups] }], dimensions, properties);

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
  const dimensions = { status: fact.status, type: fact.transactionType, errorCode: fact.errorCode ?? 'none' };
  publish(
    [
      {
        name: metricNames.paymentSettled,
        unit: MetricUnit.Count,
        value: 1,
        sets: [Object.keys(dimensions), ['status']],
      },
      alone(
        metricNames.settlementLatency,
        MetricUnit.Milliseconds,
        now.getTime() - Date.parse(fact.createdAt),
      ),
      ...(fact.deliveries !== null
        ? [alone(metricNames.paymentDeliveries, MetricUnit.Count, fact.deliveries)]
        : []),
      ...(fact.envelopes !== null
        ? [alone(metricNames.paymentEnvelopes, MetricUnit.Count, fact.envelopes)]
        : []),
    ],
    dimensions,
    { ...paymentProperties(fact), environment: fact.environment },
  );
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
  const sets = [['environment'], []];
  publish(
    [
      { name: metricNames.owedPayments, unit: MetricUnit.Count, value: owed, sets },
      { name: metricNames.owedOldestAge, unit: MetricUnit.Seconds, value: oldestAgeSeconds, sets },
    ],
    { environment },
    {},
  );
}

/** A lease of the channel pool: channels held after it, or a wait (none was free). */
export function countChannelLease(environment: string, inUse: number, size: number, waited: boolean): void {
  const sets = [['environment']];
  publish(
    [
      { name: metricNames.channelsInUse, unit: MetricUnit.Count, value: inUse, sets },
      ...(waited ? [{ name: metricNames.channelWaits, unit: MetricUnit.Count, value: 1, sets }] : []),
    ],
    { environment },
    { poolSize: size },
  );
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
  const delivered = fact.outcome === '2xx';
  publish(
    [
      { name: metricNames.webhookDelivery, unit: MetricUnit.Count, value: 1, sets: [['outcome'], []] },
      ...(delivered
        ? [
            alone(metricNames.webhookAttemptAtSuccess, MetricUnit.Count, fact.attempt),
            alone(
              metricNames.webhookDeliveryLatency,
              MetricUnit.Milliseconds,
              now.getTime() - Date.parse(fact.eventCreatedAt),
            ),
          ]
        : []),
    ],
    { outcome: fact.outcome },
    { ...deliveryProperties(fact), attempt: fact.attempt },
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
