// The worker path of the stack, exercised with a definition and a stand-in bundle of this file's own
// (beside the real queues), so batching-window and access rules are checked whatever lib/queues.ts holds.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, test } from 'vitest';
import { type BundleEntry, bundleEntries } from '../../esbuild.config.ts';
import { functionAccess } from '../../infra/function-access.ts';
import { functionMemory } from '../../infra/function-memory.ts';
import { nagChecks } from '../../infra/nag.ts';
import { PaymentsGatewayStack } from '../../infra/stack.ts';
import { physicalQueueName } from '../../lib/queue-names.ts';
import { type QueueDefinition, queues } from '../../lib/queues.ts';
import {
  asArray,
  ensureBundles,
  newApp,
  ofType,
  type Resources,
  referencedId,
  stageTemplate,
  statementsOfRole,
} from './support.ts';

await ensureBundles();
const outDir = mkdtempSync(join(tmpdir(), 'worker-bundle-'));
writeFileSync(join(outDir, 'index.mjs'), 'export const handler = async () => ({ batchItemFailures: [] });\n');
const worker: BundleEntry = {
  name: 'workers/settler',
  source: join(outDir, 'settler.ts'),
  outDir,
  outFile: join(outDir, 'index.mjs'),
};
const definition: QueueDefinition = {
  name: 'settlements',
  worker: 'settler',
  batchSize: 25,
  visibilityTimeoutSeconds: 120,
  maxReceiveCount: 4,
  maxConcurrency: 2,
};
const stackProps = {
  stage: 'dev',
  queues: [...queues, definition],
  bundles: [...bundleEntries(), worker],
  access: { ...functionAccess, 'workers/settler': { table: 'readWrite' as const, secrets: [] } },
  memory: { ...functionMemory, 'workers/settler': 256 },
};

const app = newApp();
const stack = new PaymentsGatewayStack(app, 'Workers', stackProps);
const resources = stageTemplate(stack).toJSON().Resources as Resources;

describe('a queue with a worker', () => {
  const [queueId] = ofType(resources, 'AWS::SQS::Queue')
    .filter(([, r]) => r.Properties?.QueueName === physicalQueueName('dev', definition.name))
    .map(([id]) => id);

  const mappingsOfQueue = () =>
    ofType(resources, 'AWS::Lambda::EventSourceMapping').filter(
      ([, r]) => referencedId(r.Properties?.EventSourceArn) === queueId,
    );

  test('declares the queue: its visibility timeout, and its redrive after maxReceiveCount', () => {
    assert.ok(queueId, `no queue named ${physicalQueueName('dev', definition.name)}`);
    const p = resources[queueId]?.Properties ?? {};
    assert.equal(p.VisibilityTimeout, definition.visibilityTimeoutSeconds);
    const { RedrivePolicy: redrive } = p as {
      RedrivePolicy?: { maxReceiveCount?: number; deadLetterTargetArn?: unknown };
    };
    assert.equal(redrive?.maxReceiveCount, definition.maxReceiveCount);
    assert.ok(resources[referencedId(redrive?.deadLetterTargetArn)], 'its dead-letter queue is declared');
  });

  test('feeds the worker with its batch size, reporting partial batch failures', () => {
    assert.ok(queueId);
    const mappings = mappingsOfQueue();
    assert.equal(mappings.length, 1);
    const p = mappings[0]?.[1].Properties ?? {};
    assert.equal(p.BatchSize, definition.batchSize);
    assert.deepEqual(p.FunctionResponseTypes, ['ReportBatchItemFailures']);
    // More than 10 messages per batch needs a batching window.
    assert.ok(Number(p.MaximumBatchingWindowInSeconds) > 0);
    const fn = resources[referencedId(p.FunctionName)]?.Properties ?? {};
    assert.equal(fn.Runtime, 'nodejs24.x');
    assert.ok(
      Number(fn.Timeout) * 6 <= definition.visibilityTimeoutSeconds,
      'finishes well within visibility',
    );
  });

  test('the worker may consume its queue', () => {
    const mapping = mappingsOfQueue()[0]?.[1].Properties ?? {};
    const roleId = referencedId(resources[referencedId(mapping.FunctionName)]?.Properties?.Role);
    const statements = statementsOfRole(resources, roleId);
    const consume = statements.find((s) => asArray(s.Action).includes('sqs:ReceiveMessage'));
    assert.ok(consume, 'sqs:ReceiveMessage granted');
    assert.ok(asArray(consume.Action).includes('sqs:DeleteMessage'));
    assert.deepEqual(consume.Resource, { 'Fn::GetAtt': [queueId, 'Arn'] });
  });

  test('passes cdk-nag', () => {
    assert.deepEqual(
      nagChecks(app)
        .validateScope(app)
        .violations.map((v) => v.ruleName),
      [],
    );
  });

  test('a worker without declared access does not synthesize', () => {
    const { 'workers/settler': _, ...withoutWorker } = stackProps.access;
    assert.throws(
      () => new PaymentsGatewayStack(newApp(), 'Undeclared', { ...stackProps, access: withoutWorker }),
      /No access declared for workers\/settler/,
    );
  });

  test('a worker without declared memory does not synthesize', () => {
    const { 'workers/settler': _, ...withoutWorker } = stackProps.memory;
    assert.throws(
      () => new PaymentsGatewayStack(newApp(), 'Unsized', { ...stackProps, memory: withoutWorker }),
      /No memory declared for workers\/settler in infra\/function-memory.ts/,
    );
  });
});

describe('the ledger-submitter follows the channel pool', () => {
  test('a pool of 64 (LEDGER_CHANNELS at synth): 64 invocations at once, and the functions lease from 64', () => {
    process.env.LEDGER_CHANNELS = '64';
    try {
      const pooled = Template.fromStack(
        new PaymentsGatewayStack(newApp(), 'Pool64', { stage: 'dev' }),
      ).toJSON().Resources as Resources;
      const [queueId] = ofType(pooled, 'AWS::SQS::Queue')
        .filter(([, r]) => r.Properties?.QueueName === physicalQueueName('dev', 'ledger-submissions'))
        .map(([id]) => id);
      const [, mapping] =
        ofType(pooled, 'AWS::Lambda::EventSourceMapping').find(
          ([, r]) => referencedId(r.Properties?.EventSourceArn) === queueId,
        ) ?? assert.fail('no event source on the ledger-submissions queue');
      assert.deepEqual(mapping.Properties?.ScalingConfig, { MaximumConcurrency: 64 });
      const submitter = pooled[referencedId(mapping.Properties?.FunctionName)]?.Properties as {
        Environment?: { Variables?: Record<string, unknown> };
      };
      assert.equal(submitter.Environment?.Variables?.LEDGER_CHANNELS, '64');
      // The local stack's pollers read the same definition.
      assert.equal(queues.find((q) => q.name === 'ledger-submissions')?.maxConcurrency, 64);
    } finally {
      delete process.env.LEDGER_CHANNELS;
    }
  });
});
