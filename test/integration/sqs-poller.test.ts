// The local poller against a real SQS emulator: delivery shape, partial-batch deletes, retries through the
// visibility timeout, and dead-lettering through the queue's own redrive policy.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, test } from 'vitest';
import type { QueueDefinition } from '../../lib/queues.ts';
import { ensureQueues, type LocalQueue, type LocalSqs, startSqs } from '../../local/fauxqs.ts';
import { type PollerLogger, type SqsBatchHandler, startPoller } from '../../local/sqs-poller.ts';

const stage = 'test';
let localSqs: LocalSqs;
let sqs: SQSClient;

beforeAll(async () => {
  localSqs = await startSqs({ port: 0 });
  sqs = new SQSClient({
    endpoint: localSqs.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
});

afterAll(async () => {
  sqs?.destroy();
  await localSqs?.stop();
});

/** A queue of its own per test, so a message one test leaves in flight cannot reach another test's worker. */
async function queueFor(overrides: Partial<QueueDefinition> & { name: string }): Promise<LocalQueue> {
  const definition: QueueDefinition = {
    worker: null,
    batchSize: 10,
    visibilityTimeoutSeconds: 1,
    maxReceiveCount: 5,
    maxConcurrency: 2,
    ...overrides,
  };
  const ensured = await ensureQueues(sqs, stage, [definition]);
  const queue = ensured.get(definition.name);
  assert.ok(queue);
  return queue;
}

type Verdict = 'ok' | 'fail';

/** A worker that records every invocation and fails the records `decide` says to fail. */
function recordingWorker(decide: (record: SQSRecord) => Verdict | 'throw' = () => 'ok') {
  const invocations: { event: SQSEvent; context: Context }[] = [];
  const handler: SqsBatchHandler = async (event, context) => {
    invocations.push({ event: structuredClone(event), context });
    const verdicts = event.Records.map((record) => ({ record, verdict: decide(record) }));
    if (verdicts.some(({ verdict }) => verdict === 'throw')) throw new Error('worker failed the whole batch');
    const response: SQSBatchResponse = {
      batchItemFailures: verdicts
        .filter(({ verdict }) => verdict === 'fail')
        .map(({ record }) => ({ itemIdentifier: record.messageId })),
    };
    return response;
  };
  const received = () => invocations.flatMap(({ event }) => event.Records);
  const receivedBodies = (body: string) => received().filter((record) => record.body === body);
  return { handler, invocations, received, receivedBodies };
}

function recordingLogger() {
  const entries: { level: 'warn' | 'error'; message: string }[] = [];
  const logger: PollerLogger = {
    warn: (message) => entries.push({ level: 'warn', message }),
    error: (message) => entries.push({ level: 'error', message }),
  };
  return { logger, entries };
}

function poll(
  queue: LocalQueue,
  handler: SqsBatchHandler,
  t: { onTestFinished(fn: () => Promise<void>): void },
) {
  const poller = startPoller({
    sqs,
    queueUrl: queue.queueUrl,
    queueArn: queue.queueArn,
    batchSize: 10,
    handler,
    waitTimeSeconds: 1,
    logger: recordingLogger().logger,
  });
  t.onTestFinished(() => poller.stop());
  return poller;
}

async function send(queueUrl: string, bodies: string[]) {
  const { Successful = [], Failed = [] } = await sqs.send(
    new SendMessageBatchCommand({
      QueueUrl: queueUrl,
      Entries: bodies.map((body, index) => ({ Id: String(index), MessageBody: body })),
    }),
  );
  assert.deepEqual(Failed, []);
  return Successful;
}

/** Messages still in the queue, visible or in flight. */
async function messagesIn(queueUrl: string): Promise<number> {
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return (
    Number(Attributes.ApproximateNumberOfMessages) + Number(Attributes.ApproximateNumberOfMessagesNotVisible)
  );
}

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

test('delivers a batch as an SQSEvent in Lambda shape and deletes it after success', async (t) => {
  const queue = await queueFor({ name: 'delivery' });
  const sent = await sqs.send(
    new SendMessageBatchCommand({
      QueueUrl: queue.queueUrl,
      Entries: [
        {
          Id: 'withAttributes',
          MessageBody: '{"payment":"pay_1"}',
          MessageAttributes: {
            eventType: { DataType: 'String', StringValue: 'payment.captured' },
            attempt: { DataType: 'Number', StringValue: '3' },
            signature: { DataType: 'Binary', BinaryValue: Buffer.from('sig') },
          },
        },
        { Id: 'plain1', MessageBody: 'second' },
        { Id: 'plain2', MessageBody: 'third' },
      ],
    }),
  );
  const worker = recordingWorker();
  poll(queue, worker.handler, t);

  await waitFor('the batch', () => worker.received().length === 3);
  // Sent before the poller started, so one receive takes them all: one invocation, like Lambda's batch.
  assert.equal(worker.invocations.length, 1);
  const [invocation] = worker.invocations;
  assert.ok(invocation);
  assert.equal(invocation.context.functionName, `${stage}-delivery`);
  assert.ok(invocation.context.awsRequestId);
  assert.ok(invocation.context.getRemainingTimeInMillis() > 0);

  const records = invocation.event.Records;
  const sentIds = new Map(sent.Successful?.map((entry) => [entry.Id, entry.MessageId]));
  const record = records.find((candidate) => candidate.body === '{"payment":"pay_1"}');
  assert.ok(record);
  assert.equal(record.messageId, sentIds.get('withAttributes'));
  assert.ok(record.receiptHandle);
  assert.equal(record.md5OfBody, md5('{"payment":"pay_1"}'));
  assert.ok(record.md5OfMessageAttributes);
  assert.equal(record.eventSource, 'aws:sqs');
  assert.equal(record.eventSourceARN, queue.queueArn);
  assert.equal(record.awsRegion, 'us-east-1');
  assert.equal(record.attributes.ApproximateReceiveCount, '1');
  assert.match(record.attributes.SentTimestamp, /^\d+$/);
  assert.match(record.attributes.ApproximateFirstReceiveTimestamp, /^\d+$/);
  assert.ok(record.attributes.SenderId);
  assert.deepEqual(record.messageAttributes, {
    eventType: {
      stringValue: 'payment.captured',
      stringListValues: [],
      binaryListValues: [],
      dataType: 'String',
    },
    attempt: { stringValue: '3', stringListValues: [], binaryListValues: [], dataType: 'Number' },
    signature: {
      binaryValue: Buffer.from('sig').toString('base64'),
      stringListValues: [],
      binaryListValues: [],
      dataType: 'Binary',
    },
  });
  const plain = records.find((candidate) => candidate.body === 'second');
  assert.ok(plain);
  assert.deepEqual(plain.messageAttributes, {});
  assert.equal(plain.md5OfMessageAttributes, undefined);

  await waitFor('the queue to be empty', async () => (await messagesIn(queue.queueUrl)) === 0);
});

test('redelivers only the messages named in batchItemFailures, after the visibility timeout', async (t) => {
  const queue = await queueFor({ name: 'partial', visibilityTimeoutSeconds: 1 });
  await send(queue.queueUrl, ['fine-1', 'fails-once', 'fine-2']);
  const worker = recordingWorker((record) =>
    record.body === 'fails-once' && record.attributes.ApproximateReceiveCount === '1' ? 'fail' : 'ok',
  );
  poll(queue, worker.handler, t);

  await waitFor('the failed message to come back', () => worker.receivedBodies('fails-once').length === 2);
  await waitFor('the queue to be empty', async () => (await messagesIn(queue.queueUrl)) === 0);

  assert.deepEqual(
    worker.receivedBodies('fails-once').map((record) => record.attributes.ApproximateReceiveCount),
    ['1', '2'],
  );
  // Had they not been deleted they would have come back together with the failed one.
  assert.equal(worker.receivedBodies('fine-1').length, 1);
  assert.equal(worker.receivedBodies('fine-2').length, 1);
});

test('a message that always fails moves to the DLQ after maxReceiveCount receives', async (t) => {
  const queue = await queueFor({ name: 'poison', visibilityTimeoutSeconds: 1, maxReceiveCount: 2 });
  const [sent] = await send(queue.queueUrl, ['poison']);
  const worker = recordingWorker(() => 'fail');
  poll(queue, worker.handler, t);

  await waitFor('the message to reach the DLQ', async () => (await messagesIn(queue.dlqUrl)) === 1);

  assert.deepEqual(
    worker.receivedBodies('poison').map((record) => record.attributes.ApproximateReceiveCount),
    ['1', '2'],
  );
  assert.equal(await messagesIn(queue.queueUrl), 0);
  const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.dlqUrl }));
  assert.equal(Messages.length, 1);
  assert.equal(Messages[0]?.MessageId, sent?.MessageId);
  assert.equal(Messages[0]?.Body, 'poison');
});

test('a worker that throws leaves the whole batch to come back', async (t) => {
  const queue = await queueFor({ name: 'throws', visibilityTimeoutSeconds: 1 });
  await send(queue.queueUrl, ['first', 'second']);
  let throwing = true;
  const worker = recordingWorker(() => (throwing ? 'throw' : 'ok'));
  const { logger, entries } = recordingLogger();
  const poller = startPoller({
    sqs,
    queueUrl: queue.queueUrl,
    queueArn: queue.queueArn,
    batchSize: 10,
    handler: async (event, context) => {
      try {
        return await worker.handler(event, context);
      } finally {
        throwing = false;
      }
    },
    waitTimeSeconds: 1,
    logger,
  });
  t.onTestFinished(() => poller.stop());

  await waitFor('both messages twice', () => worker.received().length === 4);
  await waitFor('the queue to be empty', async () => (await messagesIn(queue.queueUrl)) === 0);

  for (const body of ['first', 'second']) {
    assert.deepEqual(
      worker.receivedBodies(body).map((record) => record.attributes.ApproximateReceiveCount),
      ['1', '2'],
    );
  }
  assert.ok(entries.some((entry) => entry.level === 'error' && /threw/.test(entry.message)));
});

test('an itemIdentifier naming no message in the batch fails the whole batch, as in Lambda', async (t) => {
  const queue = await queueFor({ name: 'bad-response', visibilityTimeoutSeconds: 1 });
  await send(queue.queueUrl, ['only']);
  const worker = recordingWorker();
  let answered = 0;
  poll(
    queue,
    async (event, context) => {
      await worker.handler(event, context);
      answered += 1;
      return answered === 1 ? { batchItemFailures: [{ itemIdentifier: 'not-in-this-batch' }] } : undefined;
    },
    t,
  );

  await waitFor('the message to come back', () => worker.receivedBodies('only').length === 2);
  await waitFor('the queue to be empty', async () => (await messagesIn(queue.queueUrl)) === 0);
});

/** A client of its own that counts the ReceiveMessage calls sent through it. */
function countingReceives() {
  const client = new SQSClient({
    endpoint: localSqs.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  const counter = { client, receives: 0 };
  client.middlewareStack.add(
    (next, context) => (args) => {
      if (context.commandName === 'ReceiveMessageCommand') counter.receives += 1;
      return next(args);
    },
    { step: 'initialize', name: 'countReceives' },
  );
  return counter;
}

test('one receive loop feeds every invocation: a burst costs about one receive a message, not one per poller', async (t) => {
  const queue = await queueFor({ name: 'receives' });
  const counter = countingReceives();
  t.onTestFinished(() => counter.client.destroy());
  const worker = recordingWorker();
  const poller = startPoller({
    sqs: counter.client,
    queueUrl: queue.queueUrl,
    queueArn: queue.queueArn,
    batchSize: 1,
    concurrency: 16,
    handler: worker.handler,
    // Long enough that no long poll ends empty within the test: every receive counted is a wake-up.
    waitTimeSeconds: 20,
    logger: recordingLogger().logger,
  });
  t.onTestFinished(() => poller.stop());
  await waitFor('the first long poll', () => counter.receives > 0);
  const messages = 20;
  // One at a time, as payments arrive: each message wakes whoever is waiting on the queue.
  for (let i = 0; i < messages; i += 1) {
    await send(queue.queueUrl, [`m${i}`]);
    await waitFor(`message ${i}`, () => worker.receivedBodies(`m${i}`).length === 1);
  }
  // Each message was received once, and the loop waits again: one receive per message and the one waiting.
  assert.ok(counter.receives <= messages + 1, `${counter.receives} receives for ${messages} messages`);
});

test('up to maxConcurrency invocations run at once, and no more', async (t) => {
  const queue = await queueFor({ name: 'concurrency' });
  let inFlight = 0;
  let mostInFlight = 0;
  let handled = 0;
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const handler: SqsBatchHandler = async () => {
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    await gate;
    inFlight -= 1;
    handled += 1;
  };
  const poller = startPoller({
    sqs,
    queueUrl: queue.queueUrl,
    queueArn: queue.queueArn,
    batchSize: 1,
    concurrency: 16,
    handler,
    waitTimeSeconds: 1,
    logger: recordingLogger().logger,
  });
  t.onTestFinished(() => poller.stop());
  await send(
    queue.queueUrl,
    Array.from({ length: 10 }, (_, i) => `a${i}`),
  );
  await send(
    queue.queueUrl,
    Array.from({ length: 10 }, (_, i) => `b${i}`),
  );
  await waitFor('16 invocations at once', () => inFlight === 16);
  release();
  await waitFor('all 20 handled', () => handled === 20);
  assert.equal(mostInFlight, 16);
  await waitFor('the queue to be empty', async () => (await messagesIn(queue.queueUrl)) === 0);
});

test('stop() ends an in-flight long poll and resolves once the loop has exited', async () => {
  const queue = await queueFor({ name: 'stopping' });
  const worker = recordingWorker();
  const poller = startPoller({
    sqs,
    queueUrl: queue.queueUrl,
    queueArn: queue.queueArn,
    batchSize: 10,
    handler: worker.handler,
    waitTimeSeconds: 20,
    logger: recordingLogger().logger,
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  // A bound, not a speed check: without the abort, stop() would wait out the 20 s long poll.
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    poller.stop().then(() => 'stopped'),
    new Promise((resolve) => {
      timer = setTimeout(() => resolve('still polling'), 10_000);
    }),
  ]);
  clearTimeout(timer);
  assert.equal(outcome, 'stopped');
  assert.equal(worker.invocations.length, 0);
});

test('backs off after a failed receive instead of spinning', async (t) => {
  const { logger, entries } = recordingLogger();
  const poller = startPoller({
    sqs,
    queueUrl: `${localSqs.endpoint}/000000000000/${stage}-does-not-exist`,
    queueArn: `arn:aws:sqs:us-east-1:000000000000:${stage}-does-not-exist`,
    batchSize: 10,
    handler: recordingWorker().handler,
    waitTimeSeconds: 1,
    logger,
  });
  t.onTestFinished(() => poller.stop());

  await waitFor('a receive error', () => entries.length > 0);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  // A spinning loop would have logged hundreds of errors by now; with a ~1 s back-off it is a handful.
  assert.ok(entries.length <= 4, `${entries.length} receive errors in ~1.5 s`);
  assert.ok(entries.every((entry) => entry.level === 'error' && /receive failed/.test(entry.message)));
});

test('ensureQueues is idempotent and converges queues to their definitions', async () => {
  const definition: QueueDefinition = {
    name: 'idempotent',
    worker: null,
    batchSize: 10,
    visibilityTimeoutSeconds: 30,
    maxReceiveCount: 3,
    maxConcurrency: 2,
  };
  const first = await ensureQueues(sqs, stage, [definition]);
  const second = await ensureQueues(sqs, stage, [definition]);
  assert.deepEqual(second, first);

  const queue = first.get('idempotent');
  assert.ok(queue);
  assert.match(queue.queueUrl, /\/test-idempotent$/);
  assert.match(queue.dlqUrl, /\/test-idempotent-dlq$/);
  assert.match(queue.queueArn, /:test-idempotent$/);

  await ensureQueues(sqs, stage, [{ ...definition, visibilityTimeoutSeconds: 45 }]);
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queue.queueUrl, AttributeNames: ['All'] }),
  );
  assert.equal(Attributes.VisibilityTimeout, '45');
  const dlqAttributes = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queue.dlqUrl, AttributeNames: ['QueueArn'] }),
  );
  assert.deepEqual(JSON.parse(Attributes.RedrivePolicy ?? '{}'), {
    deadLetterTargetArn: dlqAttributes.Attributes?.QueueArn,
    maxReceiveCount: 3,
  });
});
