// A malformed activation message fails as its own batch item: the queue offers it again until
// maxReceiveCount and its redrive policy then moves it to the DLQ, while the valid message beside it is
// handled once. The real worker runs here, polled from a queue of this test's own on the stack's SQS
// (visibility 1 s, two receives), against the stack's DynamoDB and sandbox ledger.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { describe, it } from 'vitest';
import { ensureQueues } from '../../local/fauxqs.ts';
import { type SqsBatchHandler, startPoller } from '../../local/sqs-poller.ts';
import { newTenant } from '../support/api.ts';
import { captureLogs } from '../support/logs.ts';
import { sqsRecord } from '../support/sqs-records.ts';
import { recordPendingWithoutOutbox } from '../support/wallet-records.ts';

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('wallet activator with malformed messages', () => {
  it('sends a malformed message to the DLQ without holding back the valid one', async (t) => {
    const { handler } = (await import('../../functions/workers/wallet-activator.ts')) as unknown as {
      handler: SqsBatchHandler;
    };
    const { findWallet } = await import('../../lib/wallets/repo.ts');
    const { findAsset } = await import('../../lib/assets/repo.ts');

    const sqs = new SQSClient({ useQueueUrlAsEndpoint: false });
    t.onTestFinished(() => sqs.destroy());
    const name = `activations-malformed-${randomUUID().slice(0, 8)}`;
    const queue = (
      await ensureQueues(sqs, 'test', [
        {
          name,
          worker: null,
          batchSize: 10,
          visibilityTimeoutSeconds: 1,
          maxReceiveCount: 2,
          maxConcurrency: 2,
        },
      ])
    ).get(name);
    assert.ok(queue);
    const messagesIn = async (queueUrl: string) => {
      const { Attributes = {} } = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: queueUrl,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      return (
        Number(Attributes.ApproximateNumberOfMessages) +
        Number(Attributes.ApproximateNumberOfMessagesNotVisible)
      );
    };

    // A recorded, pending wallet whose insert asked the stack's outbox for nothing: only the valid
    // message below can activate it.
    const tenant = await newTenant();
    const scope = { environment: 'sandbox' as const, associationId: tenant.associationId };
    const usdc = await findAsset('sandbox', 'USDC');
    assert.ok(usdc?.assetIssuer);
    const { walletId } = await recordPendingWithoutOutbox(scope, {
      walletName: 'Beside malformed messages',
      assetCode: 'USDC',
      assetIssuer: usdc.assetIssuer,
      networkName: usdc.networkName,
    });
    const now = new Date().toISOString();

    const valid = JSON.stringify({ ...scope, walletId, requestedAt: now });
    const notJson = 'wallet please';
    // Cast instead of parsed, this one would look up a wallet that does not exist and be dropped.
    const wrongShape = JSON.stringify({ ...scope, walletId: 12345, requestedAt: '2020-01-01T00:00:00.000Z' });
    const { Successful = [] } = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queue.queueUrl,
        Entries: [notJson, valid, wrongShape].map((body, index) => ({
          Id: String(index),
          MessageBody: body,
        })),
      }),
    );
    assert.equal(Successful.length, 3);
    const messageIdOf = (index: number) => Successful.find((entry) => entry.Id === String(index))?.MessageId;

    const logs = captureLogs();
    t.onTestFinished(() => logs.restore());
    const received: SQSRecord[] = [];
    const poller = startPoller({
      sqs,
      queueUrl: queue.queueUrl,
      queueArn: queue.queueArn,
      batchSize: 10,
      waitTimeSeconds: 1,
      functionName: 'wallet-activator',
      handler: async (event, context) => {
        received.push(...event.Records);
        return handler(event, context);
      },
      logger: { warn: () => undefined, error: () => undefined },
    });
    t.onTestFinished(() => poller.stop());

    await waitFor('both malformed messages in the DLQ', async () => (await messagesIn(queue.dlqUrl)) === 2);
    await waitFor('the wallet to be active', async () => {
      const record = await findWallet(scope, walletId);
      return record?.activationStatus === 'active';
    });
    await poller.stop();

    const receiveCounts = (body: string) =>
      received
        .filter((record) => record.body === body)
        .map((record) => record.attributes.ApproximateReceiveCount);
    assert.deepEqual(receiveCounts(valid), ['1'], 'the valid message was handled once and deleted');
    assert.deepEqual(receiveCounts(notJson), ['1', '2']);
    assert.deepEqual(receiveCounts(wrongShape), ['1', '2']);
    assert.equal(await messagesIn(queue.queueUrl), 0);

    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queue.dlqUrl, MaxNumberOfMessages: 10 }),
    );
    assert.deepEqual(Messages.map((message) => message.Body).sort(), [notJson, wrongShape].sort());

    // Each failed receive says why, naming the message (and the member at fault), never a secret.
    const warnings = logs.lines.filter((line) => String(line.message).startsWith('Malformed message'));
    assert.equal(warnings.length, 4);
    const wrongShapeWarning = warnings.find((line) => line.messageId === messageIdOf(2));
    assert.ok(wrongShapeWarning);
    assert.match(String(wrongShapeWarning.issues), /body\.walletId/);
    assert.equal(wrongShapeWarning.function_name, 'wallet-activator');
  });
});

describe('ledger submitter: a funding resume names its environment, and only the sandbox may be named', () => {
  it('refuses a production funding resume (the sandbox function holds no production KEK, so it may not ask for one)', async () => {
    const { handler } = (await import('../../functions/workers/ledger-submitter.ts')) as unknown as {
      handler: (event: { Records: SQSRecord[] }, context: unknown) => Promise<unknown>;
    };
    const { lambdaContext } = await import('../../local/lambda-event.ts');
    const tenant = await newTenant();
    const message = (environment: string): SQSRecord =>
      sqsRecord(
        'test-ledger-submissions',
        JSON.stringify({
          kind: 'sandbox-funding',
          environment,
          associationId: tenant.associationId,
          intentId: `sandbox-fund:${environment}:${tenant.associationId}:${randomUUID()}`,
          walletId: randomUUID(),
          assetCode: 'XLM',
          amount: '10',
          requestedAt: new Date().toISOString(),
        }),
      );
    const production = message('production');
    const logs = captureLogs();
    try {
      // Its only record failed: Powertools fails the whole batch, and SQS offers it again until the DLQ.
      await assert.rejects(handler({ Records: [production] }, lambdaContext('ledger-submitter', 30_000)), {
        name: 'FullBatchFailureError',
      });
    } finally {
      logs.restore();
    }
    // Refused for naming production, before any record or key was read: a malformed message, not a payment.
    const refusal = logs.lines.find((line) => line.messageId === production.messageId && line.issues);
    assert.ok(refusal, 'refused as malformed');
    assert.match(JSON.stringify(refusal.issues), /body\.environment/);
    assert.ok(
      !logs.lines.some((line) => /Sandbox funding|still pending/.test(String(line.message))),
      'nothing was paid or resumed',
    );
  });
});
