// The outbox router: the table's stream (NEW_AND_OLD_IMAGES) → the messages lib/outbox.ts's rows ask
// for. Each record is routed in stream order (its messages, a subsegment of its own), then each queue's
// messages of the whole batch go out together (SendMessageBatch, up to 10 a call: lib/aws/queues.ts), so
// a batch of a burst's records costs a call a queue per 10 messages instead of one a message. A record
// with a message not sent is reported (partial batch response): the stream offers it again with the
// records after it, whose messages go again too, which every consumer takes (lib/outbox.ts). The local
// stack's stream poller invokes this same handler.
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import middy from '@middy/core';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { sendAllToQueue } from '../../lib/aws/queues.ts';
import { config } from '../../lib/config.ts';
import { logger } from '../../lib/log.ts';
import { type Change, logKeysOf, type OutboxMessage, outboxMessages } from '../../lib/outbox.ts';
import { annotate, traced } from '../../lib/trace.ts';

config();

type Image = NonNullable<DynamoDBRecord['dynamodb']>['NewImage'];
// The Lambda event's attribute values are the wire format the SDK's unmarshall reads.
const imageOf = (image: Image) => (image ? unmarshall(image as Record<string, AttributeValue>) : undefined);

/** A record of the batch, routed: its log keys and its messages (none when it could not be read). */
interface Routed {
  record: DynamoDBRecord;
  keys: Record<string, string>;
  messages: OutboxMessage[];
  failed: boolean;
}

const route = (record: DynamoDBRecord): Promise<Routed> =>
  traced('outbox-route', async () => {
    const change: Change = {
      kind: record.eventName ?? 'MODIFY',
      newImage: imageOf(record.dynamodb?.NewImage),
      oldImage: imageOf(record.dynamodb?.OldImage),
    };
    const keys = logKeysOf(change.newImage ?? change.oldImage);
    annotate(keys);
    return { record, keys, messages: outboxMessages(change), failed: false };
  }).catch((error: unknown) => {
    logger.error('Outbox record not routed', { eventId: record.eventID, error });
    return { record, keys: {}, messages: [], failed: true };
  });

/** Sends every routed message, each queue's together; marks the records with a message not sent. */
async function send(routed: Routed[]): Promise<void> {
  const byQueue = new Map<string, { from: Routed; message: unknown }[]>();
  for (const from of routed)
    for (const { queue, message } of from.messages) {
      const entries = byQueue.get(queue) ?? [];
      entries.push({ from, message });
      byQueue.set(queue, entries);
    }
  await traced('outbox-send', () =>
    Promise.all(
      [...byQueue].map(async ([queue, entries]) => {
        let notSent: Set<number>;
        try {
          notSent = await sendAllToQueue(
            queue,
            entries.map((entry) => entry.message),
          );
        } catch (error) {
          logger.error('Outbox queue not reachable', { queue, error });
          notSent = new Set(entries.keys());
        }
        for (const i of notSent) (entries[i] as { from: Routed }).from.failed = true;
      }),
    ),
  );
}

// The records' log keys are each their own: a record not sent warns with its keys. A message sent is a
// DEBUG line with its record's keys (the route's trace subsegment is annotated with them too); at INFO the
// batch says what it sent by queue in one line, as the next hop's line names each record again.
export const handler = middy(async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const routed: Routed[] = [];
  for (const record of event.Records) routed.push(await route(record));
  await send(routed);
  const sent: Record<string, number> = {};
  for (const { record, keys, messages, failed } of routed) {
    logger.resetKeys();
    logger.appendKeys({ eventId: record.eventID, sequenceNumber: record.dynamodb?.SequenceNumber, ...keys });
    if (failed) logger.warn('Outbox record not sent: the stream offers it again');
    else
      for (const { queue } of messages) {
        logger.debug('Outbox message sent', { queue });
        sent[queue] = (sent[queue] ?? 0) + 1;
      }
  }
  logger.resetKeys();
  if (Object.keys(sent).length > 0) logger.info('Outbox messages sent', { records: routed.length, sent });
  return {
    batchItemFailures: routed
      .filter((r) => r.failed)
      .map((r) => ({ itemIdentifier: r.record.dynamodb?.SequenceNumber ?? '' })),
  };
}).use(injectLambdaContext(logger, { resetKeys: true }));
