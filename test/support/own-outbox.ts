// The outbox of a table of a test file's own (useOwnTable), wired as the stack wires its own
// (local/stack.ts): the table's stream, read by a poller in this process, into the router, which
// sends to the queues this process's QUEUE_URL_* name; and those queues read by the test itself, their
// messages as the event source hands them to a worker. Start it after the table and queues are set.
import { randomUUID } from 'node:crypto';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBRecord, DynamoDBStreamEvent, SQSRecord } from 'aws-lambda';
import type { StreamBatchHandler } from '../../local/stream-poller.ts';

export interface OwnOutbox {
  /**
   * Resolves once every change written to the table before the call has been through the router (its
   * messages sent): a marker item written now, handled after them. DynamoDB Local keeps one open shard
   * per table's stream (a child shard only after its parent is read), so the stream is in write order.
   */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/** The marker's item type: no outbox row reads it, and the router never sees it. */
const MARKER_TYPE = 'testOutboxMarker';

/**
 * Starts the outbox of `tableName`; `observe` sees each batch of the stream before the router does.
 * `lose` names changes the stream loses: the router never sees them (as a change whose batch failed for
 * the 24 hours the stream keeps it), though `observe` does.
 */
export async function startOwnOutbox(
  tableName: string,
  functionName: string,
  observe: (event: DynamoDBStreamEvent) => void = () => undefined,
  lose: (record: DynamoDBRecord) => boolean = () => false,
): Promise<OwnOutbox> {
  const { startStreamPoller } = await import('../../local/stream-poller.ts');
  const { tableStreamArn } = await import('../../local/stack.ts');
  const { outboxItemTypes, outboxStream } = await import('../../lib/outbox.ts');
  const { handler: router } = (await import('../../functions/streams/outbox.ts')) as {
    handler: StreamBatchHandler;
  };
  const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB as string;
  const dynamo = new DynamoDBClient({ endpoint });
  const put = (type: string, sk: string) =>
    dynamo.send(
      new PutItemCommand({
        TableName: tableName,
        Item: { pk: { S: 'TEST#OUTBOX' }, sk: { S: sk }, type: { S: type } },
      }),
    );
  // DynamoDB Local can answer every read of a new table's stream with TrimmedDataAccessException when
  // the reader's iterator was taken while the shard was still empty (aws/aws-sdk-java#2923): the table
  // gets an item of no type any outbox row reads before the reader starts.
  await put('testOutboxStart', 'TEST#OUTBOX');
  /** Markers written and not handled yet, by their sort key. */
  const markers = new Map<string, () => void>();
  const markerOf = (record: DynamoDBRecord) =>
    record.dynamodb?.NewImage?.type?.S === MARKER_TYPE ? record.dynamodb.NewImage.sk?.S : undefined;
  const streams = new DynamoDBStreamsClient({ endpoint });
  const poller = startStreamPoller({
    streams,
    streamArn: await tableStreamArn(endpoint, tableName),
    batchSize: outboxStream.batchSize,
    startingPosition: outboxStream.startingPosition,
    retryAttempts: outboxStream.retryAttempts,
    // As infra's FilterCriteria: only changes whose new image is of a type some row reads (and markers).
    filter: (record) =>
      outboxItemTypes.includes(record.dynamodb?.NewImage?.type?.S ?? '') || markerOf(record) !== undefined,
    handler: async (event, context) => {
      const changes = event.Records.filter((record) => markerOf(record) === undefined);
      const handled = event.Records.flatMap((record) => markerOf(record) ?? []);
      let result: Awaited<ReturnType<StreamBatchHandler>> = { batchItemFailures: [] };
      if (changes.length > 0) {
        observe({ Records: changes });
        result = await router({ Records: changes.filter((record) => !lose(record)) }, context);
      }
      // A batch the router failed in part is read again from its failure: its markers come again.
      if (!result?.batchItemFailures?.length) for (const sk of handled) markers.get(sk)?.();
      return result;
    },
    functionName,
  });
  await poller.started;
  return {
    settled: async () => {
      const sk = `TEST#MARKER#${randomUUID()}`;
      const handled = new Promise<void>((resolve) => markers.set(sk, resolve));
      await put(MARKER_TYPE, sk);
      await handled;
      markers.delete(sk);
    },
    stop: async () => {
      await poller.stop();
      streams.destroy();
      dynamo.destroy();
    },
  };
}

/**
 * One receive from a queue of the test's own (up to 10 messages, waiting up to `waitSeconds`), hidden
 * for `visibilitySeconds`: by default taken for good, the test delivering each message itself.
 */
export async function receiveRecords(
  sqs: SQSClient,
  queueUrl: string,
  waitSeconds: number,
  visibilitySeconds = 600,
): Promise<SQSRecord[]> {
  const { toRecord } = await import('../../local/sqs-poller.ts');
  const { Messages = [] } = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: waitSeconds,
      VisibilityTimeout: visibilitySeconds,
    }),
  );
  return Messages.map((m) => toRecord(m, `arn:aws:sqs:us-east-1:000000000000:${queueUrl.split('/').pop()}`));
}
