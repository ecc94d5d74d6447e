// The dashboard and the symptom alarms of issue #25 in the synthesized stack: one dashboard per stage
// with the business metrics of lib/metrics.ts beside queue ages, dead letters and function errors; the
// four symptom alarms named like the stage's others, notifying its alarm topic (alarm and OK), on the
// bounds docs/production.md documents.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'vitest';
import {
  CHANNEL_WAITS_BOUND,
  OWED_AGE_BOUND,
  PAYMENT_FAILURE_RATE_BOUND,
  SETTLEMENT_P99_BOUND,
  symptomAlarms,
  TRANSITIONS_REFUSED_BOUND,
  WEBHOOK_SUCCESS_RATE_BOUND,
} from '../../infra/constructs/observability.ts';
import { PaymentsGatewayStack } from '../../infra/stack.ts';
import { metricNames } from '../../lib/metrics.ts';
import {
  ensureBundles,
  newApp,
  ofType,
  onlyOfType,
  type Resources,
  stageProps,
  stageTemplate,
} from './support.ts';

await ensureBundles();
const app = newApp();
const stacks = {
  dev: new PaymentsGatewayStack(app, 'Dev', { stage: 'dev' }),
  prod: new PaymentsGatewayStack(app, 'Prod', stageProps('prod')),
};
const resourcesOf = (stage: keyof typeof stacks) =>
  stageTemplate(stacks[stage]).toJSON().Resources as Resources;

/** The dashboard body as CloudFormation writes it: its joined text, references as `<ref>`. */
function dashboardBody(resources: Resources): string {
  const id = onlyOfType(resources, 'AWS::CloudWatch::Dashboard');
  const body = resources[id]?.Properties?.DashboardBody as { 'Fn::Join': [string, unknown[]] };
  return body['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : '<ref>')).join('');
}

describe('observability', () => {
  for (const stage of ['dev', 'prod'] as const) {
    const resources = resourcesOf(stage);

    test(`${stage}: one dashboard of the business metrics and their causes`, () => {
      const id = onlyOfType(resources, 'AWS::CloudWatch::Dashboard');
      assert.equal(resources[id]?.Properties?.DashboardName, `payments-gateway-${stage}`);
      const body = dashboardBody(resources);
      for (const name of [
        metricNames.paymentAccepted,
        metricNames.paymentSettled,
        metricNames.settlementLatency,
        metricNames.webhookDelivery,
        metricNames.webhookDeliveryLatency,
        metricNames.channelsInUse,
        metricNames.channelWaits,
        'ApproximateAgeOfOldestMessage',
        'ApproximateNumberOfMessagesVisible',
        'Errors',
      ])
        assert.ok(body.includes(`"${name}"`), `the dashboard shows ${name}`);
      assert.ok(body.includes(`payments-gateway/${stage}`), 'the stage’s namespace');
      assert.match(body, /"stat":"p50"/);
      assert.match(body, /"stat":"p99"/);
      assert.match(body, /SEARCH\(/, 'failures broken down by errorCode');
      assert.match(body, /errorCode/);
    });

    test(`${stage}: the symptom alarms, named for the stage, notify the alarm topic`, () => {
      const topicId = onlyOfType(resources, 'AWS::SNS::Topic');
      const alarms = new Map(
        ofType(resources, 'AWS::CloudWatch::Alarm').map(([, r]) => [
          String(r.Properties?.AlarmName),
          r.Properties ?? {},
        ]),
      );
      const expected = {
        [symptomAlarms.settlementP99]: [SETTLEMENT_P99_BOUND.toMilliseconds(), 'GreaterThanThreshold', 2],
        [symptomAlarms.paymentFailureRate]: [PAYMENT_FAILURE_RATE_BOUND, 'GreaterThanThreshold', 2],
        [symptomAlarms.webhookSuccessRate]: [WEBHOOK_SUCCESS_RATE_BOUND, 'LessThanThreshold', 3],
        [symptomAlarms.channelPoolExhausted]: [CHANNEL_WAITS_BOUND, 'GreaterThanThreshold', 2],
        [symptomAlarms.moneyOwed]: [OWED_AGE_BOUND.toSeconds(), 'GreaterThanThreshold', 1],
        [symptomAlarms.transitionsRefused]: [TRANSITIONS_REFUSED_BOUND, 'GreaterThanThreshold', 2],
      };
      const runbook = readFileSync(new URL('../../docs/production.md', import.meta.url), 'utf8');
      for (const [id, [threshold, comparison, periods]] of Object.entries(expected)) {
        const alarm = alarms.get(`payments-gateway-${stage}-${id}`);
        assert.ok(alarm, `alarm ${id}`);
        assert.equal(alarm.Threshold, threshold, id);
        assert.equal(alarm.ComparisonOperator, comparison, id);
        assert.equal(alarm.EvaluationPeriods, periods, id);
        assert.equal(alarm.TreatMissingData, 'notBreaching', id);
        for (const actions of [alarm.AlarmActions, alarm.OKActions])
          assert.deepEqual(actions, [{ Ref: topicId }], `${id} notifies the alarm topic`);
        assert.ok(runbook.includes(`### ${id}`), `docs/production.md has the runbook of ${id}`);
      }
      const p99 = alarms.get(`payments-gateway-${stage}-${symptomAlarms.settlementP99}`);
      const watched = JSON.stringify(p99);
      assert.ok(watched.includes(`"MetricName":"${metricNames.settlementLatency}"`), watched);
      assert.match(watched, /"(Stat|ExtendedStatistic)":"p99"/);
      assert.ok(watched.includes(`"Namespace":"payments-gateway/${stage}"`));
    });
  }
});
