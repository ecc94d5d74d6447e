// What an on-call engineer looks at (docs/decisions/observability.md): one dashboard per stage, of what integrators feel
// (payments accepted, settlement time, failures by error code, webhooks delivered, the channel pool)
// beside what causes it (queue ages, dead letters, function errors), and alarms on those symptoms
// through the stage's alarm topic, named like its other alarms. The business metrics are the embedded
// metric format lines of lib/metrics.ts; each alarm's runbook is in docs/production.md. The alarms are
// in the stage's alarms stack with the others; the dashboard stays beside the functions and queues it
// draws: its body is one JSON string that names them all, which another stack could only build around
// references to this one's outputs, and CloudFormation reads those (Fn::GetStackOutput) only as a whole
// property value.
import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { metricNames, metricsNamespaceOf, SERVICE_DIMENSION } from '../../lib/metrics.ts';
import { SERVICE_NAME } from '../stage.ts';
import { type Alarms, TopicAlarms } from './alarm-topic.ts';

/** Settlement p99 above this for 10 minutes pages (docs/production.md: a ledger close is ~5 s). */
export const SETTLEMENT_P99_BOUND = Duration.seconds(60);
/** Settled payments that failed, as a share of those settled, above this for 10 minutes. */
export const PAYMENT_FAILURE_RATE_BOUND = 5;
/** Webhook attempts answered 2xx, as a share of attempts, below this for 15 minutes. */
export const WEBHOOK_SUCCESS_RATE_BOUND = 90;
/** Payments that found every channel busy, more than this in each of two 5-minute periods. */
export const CHANNEL_WAITS_BOUND = 10;

/** The symptom alarms, by id: the alarm is `payments-gateway-<stage>-<id>`. */
export const symptomAlarms = {
  settlementP99: 'SettlementP99',
  paymentFailureRate: 'PaymentFailureRate',
  webhookSuccessRate: 'WebhookSuccessRate',
  channelPoolExhausted: 'ChannelPoolExhausted',
  moneyOwed: 'MoneyOwed',
  transitionsRefused: 'TransitionsRefused',
} as const;

/** Money the platform owes (a refund, a collected credit) unpaid for longer than this pages. */
export const OWED_AGE_BOUND = Duration.hours(1);
/** Provider reports or ledger outcomes a record's lifecycle refused, in 5 minutes, past which it pages. */
export const TRANSITIONS_REFUSED_BOUND = 20;

const ENVIRONMENTS = ['sandbox', 'production'];
const PERIOD = Duration.minutes(5);

export interface ObservabilityProps {
  stage: string;
  /** Every queue and its dead-letter queue, by name. */
  queues: { name: string; queue: IQueue; deadLetterQueue: IQueue }[];
  /** Every function of the stage, by bundle name. */
  functions: { name: string; fn: IFunction }[];
}

/** The business metrics of lib/metrics.ts the dashboard draws and the symptom alarms watch. */
class BusinessMetrics {
  readonly accepted: cloudwatch.Metric;
  readonly completed: cloudwatch.Metric;
  readonly failed: cloudwatch.Metric;
  readonly failureRate: cloudwatch.MathExpression;
  readonly deliveries: cloudwatch.Metric;
  readonly webhookSuccess: cloudwatch.MathExpression;
  readonly channelWaits: cloudwatch.MathExpression;
  readonly owedAge: cloudwatch.MathExpression;
  readonly namespace: string;

  constructor(stage: string) {
    const namespace = metricsNamespaceOf(SERVICE_NAME, stage);
    this.namespace = namespace;
    const metric = this.metric.bind(this);
    this.accepted = metric(metricNames.paymentAccepted, 'Sum', {}, 'accepted');
    this.completed = metric(metricNames.paymentSettled, 'Sum', { status: 'completed' });
    this.failed = metric(metricNames.paymentSettled, 'Sum', { status: 'failed' });
    this.failureRate = new cloudwatch.MathExpression({
      expression: '100 * FILL(failed, 0) / (FILL(failed, 0) + FILL(completed, 0))',
      usingMetrics: { failed: this.failed, completed: this.completed },
      label: 'failed, % of settled',
      period: PERIOD,
    });
    this.deliveries = metric(metricNames.webhookDelivery, 'Sum');
    const delivered2xx = metric(metricNames.webhookDelivery, 'Sum', { outcome: '2xx' });
    this.webhookSuccess = new cloudwatch.MathExpression({
      expression: '100 * FILL(ok, 0) / all',
      usingMetrics: { ok: delivered2xx, all: this.deliveries },
      label: 'webhook attempts 2xx, %',
      period: PERIOD,
    });
    this.channelWaits = new cloudwatch.MathExpression({
      expression: ENVIRONMENTS.map((_, i) => `FILL(w${i}, 0)`).join(' + '),
      usingMetrics: Object.fromEntries(
        ENVIRONMENTS.map((environment, i) => [
          `w${i}`,
          metric(metricNames.channelWaits, 'Sum', { environment }),
        ]),
      ),
      label: 'payments that found every channel busy',
      period: PERIOD,
    });
    this.owedAge = new cloudwatch.MathExpression({
      expression: ENVIRONMENTS.map((_, i) => `FILL(o${i}, 0)`).join(' + '),
      usingMetrics: Object.fromEntries(
        ENVIRONMENTS.map((environment, i) => [
          `o${i}`,
          metric(metricNames.owedOldestAge, 'Maximum', { environment }),
        ]),
      ),
      label: 'oldest money owed, s',
      period: PERIOD,
    });
  }

  metric(metricName: string, statistic: string, dimensions: Record<string, string> = {}, label?: string) {
    return new cloudwatch.Metric({
      namespace: this.namespace,
      metricName,
      statistic,
      period: PERIOD,
      dimensionsMap: { [SERVICE_DIMENSION]: SERVICE_NAME, ...dimensions },
      ...(label ? { label } : {}),
    });
  }

  settlementP(p: number) {
    return this.metric(metricNames.settlementLatency, `p${p}`, {}, `settlement p${p} (202 → settled)`);
  }
}

/** The symptom alarms, through the stage's alarm topic (the alarms stack). */
export class SymptomAlarms extends Construct {
  constructor(scope: Construct, id: string, props: { stage: string; alarms: Alarms }) {
    super(scope, id);
    const { alarms } = props;
    const metrics = new BusinessMetrics(props.stage);
    const { failureRate, webhookSuccess, channelWaits, owedAge } = metrics;
    const alarm = (
      alarmId: string,
      description: string,
      watched: cloudwatch.IMetric,
      threshold: number,
      evaluationPeriods: number,
      below = false,
    ) => {
      const created = new cloudwatch.Alarm(this, alarmId, {
        alarmName: `${alarms.alarmNamePrefix}${alarmId}`,
        alarmDescription: `${description} Runbook: docs/production.md#${alarmId.toLowerCase()}.`,
        metric: watched,
        threshold,
        evaluationPeriods,
        comparisonOperator: below
          ? cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD
          : cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        // No payments or webhooks is no symptom: quiet stages stay OK.
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      const action = new SnsAction(alarms.topic);
      created.addAlarmAction(action);
      created.addOkAction(action);
      return created;
    };
    alarm(
      symptomAlarms.settlementP99,
      `Payments take more than ${SETTLEMENT_P99_BOUND.toSeconds()} s from 202 to settled (p99), for 10 minutes.`,
      metrics.settlementP(99),
      SETTLEMENT_P99_BOUND.toMilliseconds(),
      2,
    );
    alarm(
      symptomAlarms.paymentFailureRate,
      `More than ${PAYMENT_FAILURE_RATE_BOUND} % of settled payments failed, for 10 minutes.`,
      failureRate,
      PAYMENT_FAILURE_RATE_BOUND,
      2,
    );
    alarm(
      symptomAlarms.webhookSuccessRate,
      `Fewer than ${WEBHOOK_SUCCESS_RATE_BOUND} % of webhook attempts answered 2xx, for 15 minutes.`,
      webhookSuccess,
      WEBHOOK_SUCCESS_RATE_BOUND,
      3,
      true,
    );
    alarm(
      symptomAlarms.channelPoolExhausted,
      `More than ${CHANNEL_WAITS_BOUND} payments found every channel account busy in each of two 5-minute periods.`,
      channelWaits,
      CHANNEL_WAITS_BOUND,
      2,
    );
    alarm(
      symptomAlarms.moneyOwed,
      `Money the platform owes (a refund, a collected on-ramp's or receipt's credit) has been unpaid for more than ${OWED_AGE_BOUND.toHours()} hour.`,
      owedAge,
      OWED_AGE_BOUND.toSeconds(),
      1,
    );
    alarm(
      symptomAlarms.transitionsRefused,
      `More than ${TRANSITIONS_REFUSED_BOUND} events were refused by the records' lifecycle tables in each of two 5-minute periods.`,
      metrics.metric(metricNames.transitionRefused, 'Sum'),
      TRANSITIONS_REFUSED_BOUND,
      2,
    );
  }
}

/**
 * The stage's dashboard (docs/production.md): what integrators feel beside what causes it. In the stack of
 * the functions and queues it draws (see the top of this file).
 */
export class Observability extends Construct {
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const { stage } = props;
    const metrics = new BusinessMetrics(stage);
    const { accepted, completed, failed, failureRate, webhookSuccess, channelWaits } = metrics;
    const metric = metrics.metric.bind(metrics);
    const settlementP = metrics.settlementP.bind(metrics);
    // A breakdown over a dimension's values, whatever they are (error codes): dashboards only.
    const search = (metricName: string, dimensions: string[], filter: string, label: string) =>
      new cloudwatch.MathExpression({
        expression: `SEARCH('{${metrics.namespace},${[SERVICE_DIMENSION, ...dimensions].join(',')}} MetricName="${metricName}" ${filter}', 'Sum', ${PERIOD.toSeconds()})`,
        label,
        period: PERIOD,
      });
    const graph = (title: string, left: cloudwatch.IMetric[], width = 8) =>
      new cloudwatch.GraphWidget({ title, left, width, height: 6 });
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `${SERVICE_NAME}-${stage}`,
      defaultInterval: Duration.hours(3),
    });
    this.dashboard.addWidgets(
      graph('Payments accepted and settled (per 5 min)', [accepted, completed, failed]),
      graph('Settlement time, 202 → settled (ms)', [settlementP(50), settlementP(99)]),
      graph('Payment failures (% of settled)', [failureRate]),
    );
    this.dashboard.addWidgets(
      graph('Failures by errorCode', [
        search(metricNames.paymentSettled, ['status', 'type', 'errorCode'], 'status="failed"', ''),
      ]),
      graph('Webhook attempts 2xx (%)', [webhookSuccess]),
      graph('Webhook delivery latency from the event (ms)', [
        metric(metricNames.webhookDeliveryLatency, 'p50', {}, 'p50'),
        metric(metricNames.webhookDeliveryLatency, 'p99', {}, 'p99'),
      ]),
    );
    this.dashboard.addWidgets(
      graph('Channel pool: channels held (max), waits', [
        ...ENVIRONMENTS.map((environment) =>
          metric(metricNames.channelsInUse, 'Maximum', { environment }, `held, ${environment}`),
        ),
        channelWaits,
      ]),
      graph(
        'Queues: oldest message (s)',
        props.queues.map(({ name, queue }) =>
          queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum', label: name }),
        ),
      ),
      graph(
        'Dead-letter queues: messages',
        props.queues.map(({ name, deadLetterQueue }) =>
          deadLetterQueue.metricApproximateNumberOfMessagesVisible({
            period: PERIOD,
            statistic: 'Maximum',
            label: name,
          }),
        ),
      ),
    );
    this.dashboard.addWidgets(
      graph(
        'Function errors',
        props.functions.map(({ name, fn }) => fn.metricErrors({ period: PERIOD, label: name })),
        24,
      ),
    );
  }
}

/**
 * The stage's alarms and metric filters, a stack of their own deployed after the main stack: the
 * symptom alarms here, the others added by the main stack as it makes what they watch (`alarms`). Nothing
 * of it is stateful or referred to: it can be deleted and created again at any time.
 */
export class ObservabilityStack extends Stack {
  readonly alarms: TopicAlarms;

  constructor(scope: Construct, id: string, props: StackProps & { stage: string; topic: ITopic }) {
    const { stage, topic, ...stackProps } = props;
    super(scope, id, stackProps);
    this.alarms = new TopicAlarms(this, 'Alarms', { stage, topic });
    new SymptomAlarms(this, 'Observability', { stage, alarms: this.alarms });
  }
}
