// The record is the outbox: a wallet written 'pending' gets its ledger account through the table's stream
// alone (DynamoDB Local's real stream, the stack's stream poller and router, fauxqs, the activation
// worker), and a send that fails is delivered again from the stream, not lost.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import {
  CreateQueueCommand,
  DeleteQueueCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { describe, it } from 'vitest';
import type { StreamBatchHandler, StreamBatchResult } from '../../local/stream-poller.ts';
import { horizon, newTenant } from '../support/api.ts';
import { recordWallet } from '../support/wallet-records.ts';

/** Polls `check` every 100 ms until it returns a value, or fails after `ms`. */
async function eventually<T>(what: string, check: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A pending wallet (XLM: no trustline) written straight to the table, as POST /wallets writes it. */
async function writePendingWallet(walletId: string = randomUUID()) {
  const tenant = await newTenant();
  const scope = { environment: 'sandbox' as const, associationId: tenant.associationId };
  const { publicKey } = await recordWallet(scope, { walletName: 'Outbox', walletId });
  return { scope, walletId, publicKey };
}

async function activeWallet(scope: { environment: 'sandbox'; associationId: string }, walletId: string) {
  const { findWallet } = await import('../../lib/wallets/repo.ts');
  return eventually(`wallet ${walletId} active`, async () => {
    const record = await findWallet(scope, walletId, { consistent: true });
    assert.notEqual(record?.activationStatus, 'failed', JSON.stringify(record));
    return record?.activationStatus === 'active' ? record : undefined;
  });
}

async function accountsCreated(publicKey: string): Promise<number> {
  const operations = (await horizon(`/accounts/${publicKey}/operations?limit=200`))._embedded.records as {
    type: string;
  }[];
  return operations.filter((operation) => operation.type === 'create_account').length;
}

/** Every message on `queueUrl`, read until it stays empty. */
async function drain(sqs: SQSClient, queueUrl: string): Promise<string[]> {
  const bodies: string[] = [];
  for (let empty = 0; empty < 3; ) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    empty = Messages.length === 0 ? empty + 1 : 0;
    bodies.push(...Messages.map((message) => message.Body ?? ''));
  }
  return bodies;
}

describe('outbox', () => {
  it("sends one stream batch's messages to a queue in SendMessageBatch calls of 10: 23 records, 3 calls", async () => {
    const env = process.env as Record<string, string>;
    const sqs = new SQSClient({ useQueueUrlAsEndpoint: false });
    const { QueueUrl: ownQueue } = await sqs.send(
      new CreateQueueCommand({ QueueName: `test-outbox-batch-${randomUUID()}` }),
    );
    assert.ok(ownQueue);
    const stackQueue = env.QUEUE_URL_WALLET_ACTIVATIONS;
    env.QUEUE_URL_WALLET_ACTIVATIONS = ownQueue;
    const { handler: router } = (await import('../../functions/streams/outbox.ts')) as {
      handler: (event: DynamoDBStreamEvent, context: Context) => Promise<unknown>;
    };
    // Wallets inserted pending, as the stream carries them (never written: nothing else acts on them).
    const walletIds = Array.from({ length: 23 }, () => randomUUID());
    const records: DynamoDBRecord[] = walletIds.map((walletId, i) => ({
      eventID: `event-${i}`,
      eventName: 'INSERT',
      dynamodb: {
        SequenceNumber: String(1000 + i),
        NewImage: marshall({
          type: 'wallet',
          environment: 'sandbox',
          associationId: randomUUID(),
          walletId,
          activationStatus: 'pending',
          createdAt: new Date().toISOString(),
        }) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'],
      },
    }));
    const calls: string[] = [];
    const onRequest = (message: unknown) => {
      const target = (message as { request: ClientRequest }).request.getHeader('x-amz-target');
      if (typeof target === 'string') calls.push(target);
    };
    subscribe('http.client.request.start', onRequest);
    let result: unknown;
    try {
      result = await router({ Records: records }, { awsRequestId: randomUUID() } as Context);
    } finally {
      unsubscribe('http.client.request.start', onRequest);
      env.QUEUE_URL_WALLET_ACTIVATIONS = stackQueue as string;
    }
    try {
      assert.deepEqual(result, { batchItemFailures: [] });
      assert.deepEqual(calls, Array(3).fill('AmazonSQS.SendMessageBatch'));
      const sent = (await drain(sqs, ownQueue)).map((body) => JSON.parse(body).walletId);
      assert.deepEqual(sent.sort(), [...walletIds].sort());
    } finally {
      await sqs.send(new DeleteQueueCommand({ QueueUrl: ownQueue }));
      sqs.destroy();
    }
  });

  it('a pending wallet written straight to the table is activated through the stream', async () => {
    const { scope, walletId, publicKey } = await writePendingWallet();
    await activeWallet(scope, walletId);
    assert.equal(await accountsCreated(publicKey), 1);
  });

  it('a failed send fails its record alone; the stream delivers it again, and the wallet opens once', async () => {
    const env = process.env as Record<string, string>;
    const sqs = new SQSClient({ useQueueUrlAsEndpoint: false });
    const streams = new DynamoDBStreamsClient({ endpoint: env.AWS_ENDPOINT_URL_DYNAMODB });
    // A second reader of the stack's stream, from now on, routing into a queue of this test's own: the
    // stack's reader still opens the account; this one's deliveries are counted.
    const { QueueUrl: ownQueue } = await sqs.send(
      new CreateQueueCommand({ QueueName: `test-outbox-${randomUUID()}` }),
    );
    assert.ok(ownQueue);
    env.QUEUE_URL_WALLET_ACTIVATIONS = ownQueue;
    const { handler: router } = (await import('../../functions/streams/outbox.ts')) as {
      handler: StreamBatchHandler;
    };
    const { startStreamPoller } = await import('../../local/stream-poller.ts');
    const { tableStreamArn } = await import('../../local/stack.ts');

    // Known before the write: the stream may deliver the insert before the write's own answer arrives.
    const walletId = randomUUID();
    const deliveries: { failed: boolean }[] = [];
    let failNext = true;
    // Shards are read in parallel (as Lambda does): one invocation at a time here, so the wrong URL is
    // seen by the faulted batch alone.
    let turn = Promise.resolve();
    const serialized: StreamBatchHandler = (event, context) => {
      const run = turn.then(() => faulting(event, context));
      turn = run.then(
        () => undefined,
        () => undefined,
      );
      return run;
    };
    const faulting = async (event: DynamoDBStreamEvent, context: Parameters<StreamBatchHandler>[1]) => {
      const ours = event.Records.find(
        (record) => record.eventName === 'INSERT' && record.dynamodb?.NewImage?.walletId?.S === walletId,
      );
      // The fault: the router cannot send for the first batch holding our record (no queue configured:
      // every send of that batch throws, whatever the SQS service would make of a wrong URL).
      if (ours && failNext) env.QUEUE_URL_WALLET_ACTIVATIONS = '';
      let result: StreamBatchResult;
      try {
        result = await router(event, context);
      } catch (error) {
        // Powertools throws when every record of the batch failed: the whole batch is read again.
        if (ours) deliveries.push({ failed: true });
        throw error;
      } finally {
        env.QUEUE_URL_WALLET_ACTIVATIONS = ownQueue;
        if (ours) failNext = false;
      }
      if (ours) {
        const failures = result ? (result.batchItemFailures ?? []) : [];
        deliveries.push({ failed: failures.some((f) => f.itemIdentifier === ours.dynamodb?.SequenceNumber) });
      }
      return result;
    };
    const poller = startStreamPoller({
      streams,
      streamArn: await tableStreamArn(env.AWS_ENDPOINT_URL_DYNAMODB as string, env.TABLE_NAME as string),
      batchSize: 25,
      startingPosition: 'LATEST',
      retryAttempts: 10,
      handler: serialized,
      functionName: 'test-outbox',
      logger: { warn: () => {}, error: () => {} },
    });
    try {
      await poller.started;
      const wallet = await writePendingWallet(walletId);

      // Our record came twice: first failed (reported, or the whole batch failed), then sent.
      await eventually('the record delivered again', async () =>
        deliveries.length >= 2 ? deliveries : undefined,
      );
      assert.deepEqual(deliveries.slice(0, 2), [{ failed: true }, { failed: false }]);

      // Exactly one activation message for it reached our queue (read it empty: others' may be there).
      const ours = (await drain(sqs, ownQueue)).filter((body) => JSON.parse(body).walletId === walletId);
      assert.equal(ours.length, 1);

      // The stack's own reader opened the account; our message, a second delivery, opens nothing more.
      await activeWallet(wallet.scope, wallet.walletId);
      const { activationMessage } = await import('../../lib/wallets/activation-message.ts');
      const { activateWallet } = await import('../../lib/wallets/activation.ts');
      await activateWallet(activationMessage.parse(JSON.parse(ours[0] as string)), new Date());
      assert.equal(await accountsCreated(wallet.publicKey), 1);
    } finally {
      await poller.stop();
      streams.destroy();
      await sqs.send(new DeleteQueueCommand({ QueueUrl: ownQueue }));
      sqs.destroy();
    }
  });
});
