// The outbox reconciler in the synthesized stack (lib/outbox-reconciler.ts): the sparse pending index it
// queries, the schedule that runs it, a role that may query that index, move a record's place on it and
// send to the queues the reconciled inserts' rows name, and nothing else; its dead letters and its
// re-drives alarmed.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { RECONCILER_DEAD_LETTERS_QUEUE } from '../../infra/constructs/function-schedule.ts';
import { stageSettings } from '../../infra/stage.ts';
import { PENDING_INDEX, PENDING_KEYS_INDEX } from '../../lib/db/keys.ts';
import { REDRIVEN_MESSAGE, reconcilerQueues } from '../../lib/outbox.ts';
import { physicalQueueName } from '../../lib/queue-names.ts';
import { asArray, ofType, onlyOfType, referencedId, stageResources, statementsOfRole } from './support.ts';

const { dev: resources, prod: prodResources } = await stageResources();
const tableId = onlyOfType(resources, 'AWS::DynamoDB::Table');
const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };

const [reconcilerId] = ofType(resources, 'AWS::Lambda::Function')
  .filter(([, r]) => String(r.Properties?.Description).endsWith(' schedules/reconciler'))
  .map(([id]) => id);
assert.ok(reconcilerId, 'the reconciler function');
const reconciler = resources[reconcilerId]?.Properties ?? {};
const roleId = referencedId(reconciler.Role);
const queueIdNamed = (name: string) => {
  const ids = ofType(resources, 'AWS::SQS::Queue')
    .filter(([, r]) => r.Properties?.QueueName === physicalQueueName('dev', name))
    .map(([id]) => id);
  assert.equal(ids.length, 1, name);
  return ids[0] as string;
};

describe('outbox reconciler', () => {
  test('the table has the sparse pending index, keys only: pendingPk / pendingSk, strings', () => {
    const table = resources[tableId]?.Properties ?? {};
    const indexes = table.GlobalSecondaryIndexes as {
      IndexName: string;
      KeySchema: unknown;
      Projection: unknown;
    }[];
    const index = indexes.find((g) => g.IndexName === PENDING_KEYS_INDEX);
    assert.ok(
      !indexes.some((g) => g.IndexName === PENDING_INDEX),
      'the projected one is gone in the final shape',
    );
    assert.deepEqual(index?.Projection, { ProjectionType: 'KEYS_ONLY' });
    assert.deepEqual(index?.KeySchema, [
      { AttributeName: 'pendingPk', KeyType: 'HASH' },
      { AttributeName: 'pendingSk', KeyType: 'RANGE' },
    ]);
    const attributes = table.AttributeDefinitions as { AttributeName: string; AttributeType: string }[];
    for (const name of ['pendingPk', 'pendingSk'])
      assert.ok(
        attributes.some((a) => a.AttributeName === name && a.AttributeType === 'S'),
        name,
      );
  });

  test('an EventBridge rule runs it every 5 minutes, with a dead-letter queue and retries', () => {
    const rules = ofType(resources, 'AWS::Events::Rule').filter(([, r]) =>
      asArray(r.Properties?.Targets as unknown[]).some(
        (t) => referencedId((t as { Arn: unknown }).Arn) === reconcilerId,
      ),
    );
    assert.equal(rules.length, 1);
    const rule = rules[0]?.[1].Properties ?? {};
    assert.equal(rule.ScheduleExpression, 'rate(5 minutes)');
    assert.equal(rule.State, 'ENABLED');
    const [target] = rule.Targets as {
      DeadLetterConfig: { Arn: unknown };
      RetryPolicy: { MaximumRetryAttempts: number };
    }[];
    assert.equal(referencedId(target?.DeadLetterConfig.Arn), queueIdNamed(RECONCILER_DEAD_LETTERS_QUEUE));
    assert.equal(target?.RetryPolicy.MaximumRetryAttempts, 2);
    // EventBridge may invoke it, from this rule only.
    const permissions = ofType(resources, 'AWS::Lambda::Permission').filter(
      ([, r]) => referencedId(r.Properties?.FunctionName) === reconcilerId,
    );
    assert.deepEqual(
      permissions.map(([, r]) => [r.Properties?.Principal, referencedId(r.Properties?.SourceArn)]),
      [['events.amazonaws.com', rules[0]?.[0]]],
    );
  });

  test('its role: Query on the pending index, UpdateItem on the table, sends to the reconciled rows’ queues, nothing else', () => {
    const dynamodb: [string, unknown][] = [];
    const sqsSends = new Set<string>();
    for (const statement of statementsOfRole(resources, roleId)) {
      assert.equal(statement.Effect, 'Allow');
      // The UpdateItem's conditions are the next test's.
      if (!asArray(statement.Action).includes('dynamodb:UpdateItem'))
        assert.equal(statement.Condition, undefined);
      for (const action of asArray(statement.Action)) {
        const [service] = action.split(':');
        if (service === 'logs' || service === 'xray') continue;
        if (service === 'dynamodb')
          for (const target of asArray(statement.Resource)) dynamodb.push([action, target]);
        else if (service === 'sqs') {
          assert.ok(
            ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'].includes(action),
            action,
          );
          for (const target of asArray(statement.Resource)) sqsSends.add(referencedId(target));
        } else assert.fail(`unexpected permission ${action}`);
      }
    }
    assert.deepEqual(dynamodb.sort(), [
      ['dynamodb:BatchGetItem', tableArn],
      ['dynamodb:Query', { 'Fn::Join': ['', [tableArn, `/index/${PENDING_INDEX}`]] }],
      ['dynamodb:Query', { 'Fn::Join': ['', [tableArn, `/index/${PENDING_KEYS_INDEX}`]] }],
      ['dynamodb:UpdateItem', tableArn],
    ]);
    assert.deepEqual(
      [...reconcilerQueues].sort(),
      ['ledger-submissions', 'payment-notifications', 'wallet-activations', 'webhook-events'],
      'the queues a payment’s or a wallet’s rows ask for',
    );
    assert.deepEqual(sqsSends, new Set(reconcilerQueues.map(queueIdNamed)));
  });

  test('its UpdateItem and BatchGetItem reach tenant records only', () => {
    const statements = statementsOfRole(resources, roleId).filter((statement) =>
      asArray(statement.Action).some((a) => a === 'dynamodb:UpdateItem' || a === 'dynamodb:BatchGetItem'),
    );
    assert.equal(statements.length, 1);
    assert.deepEqual(asArray(statements[0]?.Action).sort(), ['dynamodb:BatchGetItem', 'dynamodb:UpdateItem']);
    // Without it it could rewrite or read any item: an application's credentials, a platform account, a submission.
    assert.deepEqual(statements[0]?.Condition, {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['T#*'] },
    });
  });

  test('alarms: its schedule’s dead letters, and any re-driven record (a metric filter on its line)', () => {
    const alarms = ofType(resources, 'AWS::CloudWatch::Alarm').map(([, r]) => r.Properties ?? {});
    const dlq = queueIdNamed(RECONCILER_DEAD_LETTERS_QUEUE);
    assert.ok(
      alarms.some((a) =>
        asArray(a.Dimensions as { Value: unknown }[]).some((d) => {
          try {
            return referencedId(d.Value) === dlq;
          } catch {
            return false;
          }
        }),
      ),
      'dead letters alarmed',
    );
    const filters = ofType(resources, 'AWS::Logs::MetricFilter').filter(([, r]) =>
      String(r.Properties?.FilterPattern).includes(REDRIVEN_MESSAGE),
    );
    assert.equal(filters.length, 1);
    const filter = filters[0]?.[1].Properties ?? {};
    const [metric] = filter.MetricTransformations as { MetricName: string }[];
    const logGroup = (reconciler.LoggingConfig as { LogGroup: unknown }).LogGroup;
    assert.equal(referencedId(filter.LogGroupName), referencedId(logGroup), 'its own log group');
    const redriven = alarms.filter((a) => a.MetricName === metric?.MetricName);
    assert.equal(redriven.length, 1);
    assert.equal(redriven[0]?.Threshold, 0);
    assert.equal(redriven[0]?.ComparisonOperator, 'GreaterThanThreshold');
  });

  test('prod reserves it one invocation: one run at a time, and a run during an API flood', () => {
    assert.equal(stageSettings('prod').reservedConcurrency['schedules/reconciler'], 1);
    const [prodId] = ofType(prodResources, 'AWS::Lambda::Function')
      .filter(([, r]) => String(r.Properties?.Description).endsWith(' schedules/reconciler'))
      .map(([id]) => id);
    assert.equal(prodResources[prodId as string]?.Properties?.ReservedConcurrentExecutions, 1);
  });
});
