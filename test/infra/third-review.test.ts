// The production stack's third review (issue 36, item 6), as synth assertions: ceilings for the functions
// that wait on the ledger; the SES feedback function's failures kept and alarmed, SES's reputation alarmed,
// mail sent only over TLS; backups locked and their failed jobs alarmed; the sandbox helpers' and the
// provider route's writes scoped by dynamodb:LeadingKeys; HSTS and security headers at the edge; the alarm
// topic admitting each EventBridge rule by its ARN; the table's deletion protection asserted at every
// deploy; the bootstrap qualifier a context value; a production stack without an email identity saying
// so; and the sandbox reserves' schedule and alarm (item 2). One App (dev, prod) for the file.
import assert from 'node:assert/strict';
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { describe, test } from 'vitest';
import { SANDBOX_RESERVES_DEAD_LETTERS_QUEUE } from '../../infra/constructs/function-schedule.ts';
import { NO_EMAIL_IDENTITY_WARNING } from '../../infra/constructs/notices.ts';
import { TableProtection } from '../../infra/constructs/table-protection.ts';
import { PaymentsGatewayStack } from '../../infra/stack.ts';
import { metricNames } from '../../lib/metrics.ts';
import {
  asArray,
  type CfnResource,
  ensureBundles,
  newApp,
  ofType,
  type Resources,
  referencedId,
  stageProps,
  stageTemplate,
  statementsOfRole,
  synthesisMessages,
} from './support.ts';

await ensureBundles();
const QUALIFIER = 'q1w2e3r4';
const app = newApp();
app.node.setContext('@aws-cdk/core:bootstrapQualifier', QUALIFIER);
const devStack = new PaymentsGatewayStack(app, 'Dev', { stage: 'dev' });
const prodStack = new PaymentsGatewayStack(app, 'Prod', stageProps('prod'));
const quietProd = new PaymentsGatewayStack(app, 'ProdWithoutEmail', { ...stageProps('prod'), notices: {} });
const assembly = app.synth();
const dev = stageTemplate(devStack).toJSON() as {
  Resources: Resources;
  Parameters: Record<string, { Default?: string }>;
};
const prod = stageTemplate(prodStack).toJSON() as typeof dev;

// biome-ignore lint/suspicious/noExplicitAny: template properties are asserted on member by member.
type Json = any;
const propsOf = (resources: Resources, id: string): Json => resources[id]?.Properties ?? {};

/** The function a bundle ships as, by the description BundledFunction gives it. */
function functionOf(resources: Resources, stage: string, bundle: string): string {
  const [found] = ofType(resources, 'AWS::Lambda::Function').filter(
    ([, r]) => r.Properties?.Description === `payments-gateway ${stage} ${bundle}`,
  );
  assert.ok(found, `no function ${bundle}`);
  return found[0];
}

const alarms = (resources: Resources): Json[] =>
  ofType(resources, 'AWS::CloudWatch::Alarm').map(([, r]) => r.Properties);

/** The alarm on a queue's visible messages, by the queue's logical id. */
const alarmOnQueue = (resources: Resources, queueId: string) =>
  alarms(resources).find(
    (a) =>
      a.MetricName === 'ApproximateNumberOfMessagesVisible' &&
      asArray<Json>(a.Dimensions).some((d) => d.Name === 'QueueName' && referencedId(d.Value) === queueId),
  );

describe('the production stack, third review', () => {
  test('prod puts a ceiling on every API function that waits on the ledger (payments and ramps, wallets, statements, sandbox helpers)', () => {
    for (const bundle of ['api/payments', 'api/wallets', 'api/statements', 'api/sandbox']) {
      const reserved = propsOf(
        prod.Resources,
        functionOf(prod.Resources, 'prod', bundle),
      ).ReservedConcurrentExecutions;
      assert.ok(Number(reserved) > 0, `${bundle}: ${reserved}`);
      assert.equal(
        propsOf(dev.Resources, functionOf(dev.Resources, 'dev', bundle)).ReservedConcurrentExecutions,
        undefined,
      );
    }
  });

  test('the SES feedback function sends what it fails to its own queue, alarmed; SES bounce and complaint rates are alarmed; mail goes over TLS only', () => {
    for (const [stage, resources] of [
      ['dev', dev.Resources],
      ['prod', prod.Resources],
    ] as const) {
      const feedback = functionOf(resources, stage, 'events/ses-feedback');
      const [config] = ofType(resources, 'AWS::Lambda::EventInvokeConfig').filter(
        ([, r]) => referencedId(r.Properties?.FunctionName) === feedback,
      );
      assert.ok(config, `${stage}: an async invoke config for ses-feedback`);
      const onFailure = config[1].Properties?.DestinationConfig as Json;
      const queueId = referencedId(onFailure?.OnFailure?.Destination);
      assert.equal(resources[queueId]?.Type, 'AWS::SQS::Queue');
      assert.ok(alarmOnQueue(resources, queueId), `${stage}: the failure queue is alarmed`);
      const rates = alarms(resources)
        .filter((a) => a.Namespace === 'AWS/SES')
        .map((a) => a.MetricName);
      assert.deepEqual(rates.sort(), ['Reputation.BounceRate', 'Reputation.ComplaintRate']);
      const [[, set]] = ofType(resources, 'AWS::SES::ConfigurationSet') as [[string, CfnResource]];
      assert.equal((set.Properties?.DeliveryOptions as Json)?.TlsPolicy, 'REQUIRE');
    }
  });

  test('prod locks its backup vault (compliance mode after a 3-day grace) and alarms on a failed or expired backup job or a failed copy', () => {
    const [[vaultId, vault]] = ofType(prod.Resources, 'AWS::Backup::BackupVault') as [[string, CfnResource]];
    assert.deepEqual(vault.Properties?.LockConfiguration, { MinRetentionDays: 35, ChangeableForDays: 3 });
    const jobs = alarms(prod.Resources).find((a) =>
      asArray<Json>(a.Metrics).some((m) => m.MetricStat?.Metric?.MetricName === 'NumberOfBackupJobsFailed'),
    );
    assert.ok(jobs, 'a backup-job alarm');
    const names = asArray<Json>(jobs.Metrics).flatMap((m) =>
      m.MetricStat ? [m.MetricStat.Metric.MetricName] : [],
    );
    assert.deepEqual(names.sort(), [
      'NumberOfBackupJobsExpired',
      'NumberOfBackupJobsFailed',
      'NumberOfCopyJobsFailed',
    ]);
    for (const m of asArray<Json>(jobs.Metrics).filter((m) => m.MetricStat))
      assert.equal(referencedId(m.MetricStat.Metric.Dimensions[0].Value), vaultId);
    assert.deepEqual(ofType(dev.Resources, 'AWS::Backup::BackupVault'), []);
  });

  test("the sandbox helpers' and the provider route's roles write only their partitions (dynamodb:LeadingKeys), never credentials or catalogues", () => {
    for (const [bundle, expected] of [
      ['api/sandbox', ['T#*', 'PLATFORM#sandbox', 'SUBMISSION#sandbox#*', 'PROVIDER#sandbox#*', 'RATE#*']],
      ['api/providers', ['T#*', 'PROVIDER#*', 'PLATFORM#*', 'SUBMISSION#*', 'RATE#*']],
    ] as const) {
      const fn = functionOf(prod.Resources, 'prod', bundle);
      const role = referencedId(propsOf(prod.Resources, fn).Role);
      const writes = statementsOfRole(prod.Resources, role).filter((s) =>
        asArray(s.Action).some((a) => a === 'dynamodb:PutItem' || a === 'dynamodb:UpdateItem'),
      );
      assert.ok(writes.length > 0, bundle);
      for (const statement of writes) {
        const keys = (statement.Condition as Json)?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
        assert.deepEqual(keys, expected, `${bundle}: ${JSON.stringify(statement)}`);
      }
    }
  });

  test('every answer of the distribution carries HSTS and the usual security headers', () => {
    for (const resources of [dev.Resources, prod.Resources]) {
      // The API's behaviours share one policy; the business portal's has its own CSP, the same HSTS.
      const policies = new Map(ofType(resources, 'AWS::CloudFront::ResponseHeadersPolicy'));
      assert.ok(policies.size >= 1);
      for (const policy of policies.values()) {
        const headers = (policy.Properties as Json).ResponseHeadersPolicyConfig.SecurityHeadersConfig;
        assert.ok(headers.StrictTransportSecurity.AccessControlMaxAgeSec >= 31_536_000);
        assert.equal(headers.StrictTransportSecurity.IncludeSubdomains, true);
        assert.equal(headers.StrictTransportSecurity.Preload, true);
        assert.equal(headers.ContentTypeOptions.Override, true);
        assert.equal(headers.FrameOptions.FrameOption, 'DENY');
        assert.equal(headers.ReferrerPolicy.ReferrerPolicy, 'no-referrer');
      }
      const [[, distribution]] = ofType(resources, 'AWS::CloudFront::Distribution') as [
        [string, CfnResource],
      ];
      const config = distribution.Properties?.DistributionConfig as Json;
      for (const behavior of [config.DefaultCacheBehavior, ...asArray<Json>(config.CacheBehaviors)])
        assert.ok(
          policies.has(referencedId(behavior.ResponseHeadersPolicyId) as string),
          behavior.PathPattern ?? 'default',
        );
    }
  });

  test("the alarm topic admits EventBridge only for its own rules, each by the rule's ARN", () => {
    const statements = ofType(prod.Resources, 'AWS::SNS::TopicPolicy').flatMap(
      ([, r]) => (r.Properties as Json).PolicyDocument.Statement as Json[],
    );
    const fromEvents = statements.filter((s) => s.Principal?.Service === 'events.amazonaws.com');
    assert.ok(fromEvents.length >= 3, 'the key guard rules publish');
    const rules = new Set(ofType(prod.Resources, 'AWS::Events::Rule').map(([id]) => id));
    for (const statement of fromEvents) {
      const source = statement.Condition?.ArnEquals?.['aws:SourceArn'];
      assert.ok(source && rules.has(referencedId(source)), JSON.stringify(statement));
    }
  });

  test('the table deletion-protection resource changes at every synth, so every deploy reapplies it', () => {
    const synthesized = () => {
      const stack = new Stack(new App(), 'Protected');
      const table = new dynamodb.Table(stack, 'Table', {
        partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
        removalPolicy: RemovalPolicy.DESTROY,
      });
      new TableProtection(stack, 'Protection', { table });
      const [lock] = Object.values(Template.fromStack(stack).findResources('Custom::AWS')) as Json[];
      return lock.Properties;
    };
    const [first, second] = [synthesized(), synthesized()];
    assert.ok(first.Deploy, 'a per-synth value');
    assert.notEqual(first.Deploy, second.Deploy);
    assert.deepEqual(first.Update, first.Create, 'an update asserts what the create did');
  });

  test('the bootstrap qualifier is the context value: the synthesizer and the key guard name its roles', () => {
    assert.equal(prod.Parameters.BootstrapVersion?.Default, `/cdk-bootstrap/${QUALIFIER}/version`);
    const text = JSON.stringify(prod.Resources);
    assert.ok(
      text.includes(`cdk-${QUALIFIER}-cfn-exec-role`),
      'the key guard admits the qualified deploy role',
    );
    assert.ok(!text.includes('hnb659fds'), 'no default qualifier is left');
  });

  test('a production stack without an email sending identity says so at synth (and so at deploy); one with it, and dev, do not', () => {
    const messages = synthesisMessages(assembly);
    const warned = messages.filter((m) => m.includes('Email notices are off'));
    assert.equal(warned.length, 1, messages.join('\n'));
    assert.match(warned[0] ?? '', /ProdWithoutEmail/);
    assert.match(warned[0] ?? '', new RegExp(NO_EMAIL_IDENTITY_WARNING.replace(':', '.')));
    assert.ok(quietProd);
  });

  test('the sandbox reserves run on a schedule, their undelivered events alarmed, and the funding or a settlement account held low an hour alarms', () => {
    const fn = functionOf(dev.Resources, 'dev', 'schedules/sandbox-reserves');
    const [rule] = ofType(dev.Resources, 'AWS::Events::Rule').filter(([, r]) =>
      asArray<Json>(r.Properties?.Targets).some((t) => referencedId(t.Arn) === fn),
    );
    assert.ok(rule, 'a schedule rule');
    assert.equal(rule[1].Properties?.ScheduleExpression, 'rate(15 minutes)');
    const target = asArray<Json>(rule[1].Properties?.Targets)[0];
    const dlq = referencedId(target.DeadLetterConfig.Arn);
    assert.match(
      String(propsOf(dev.Resources, dlq).QueueName),
      new RegExp(SANDBOX_RESERVES_DEAD_LETTERS_QUEUE),
    );
    assert.ok(alarmOnQueue(dev.Resources, dlq));
    const low = alarms(dev.Resources).filter((a) => a.MetricName === metricNames.sandboxReserve);
    const watched = low.map((a) => {
      assert.equal(a.ComparisonOperator, 'LessThanThreshold');
      assert.equal(a.Namespace, 'payments-gateway/dev');
      const dims = Object.fromEntries(asArray<Json>(a.Dimensions).map((d) => [d.Name, d.Value]));
      assert.equal(dims.service, 'payments-gateway');
      return `${dims.account} ${dims.asset} < ${a.Threshold}`;
    });
    assert.deepEqual(watched.sort(), ['funding XLM < 1000', 'settlement USDC < 10000']);
  });
});
