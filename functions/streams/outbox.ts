// The outbox router: the table's stream (NEW_AND_OLD_IMAGES) → the messages lib/outbox.ts's rows ask
// for. Each record is its own batch item: a record whose send fails is reported (partial batch response),
// and the stream offers it again with the records after it; the ones already sent go again too, which
// every consumer takes (lib/outbox.ts). The local stack's stream poller invokes this same handler.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import middy from '@middy/core';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { sendToQueue } from '../../lib/aws/queues.ts';
import { config } from '../../lib/config.ts';
import { logger } from '../../lib/log.ts';
import { type Change, logKeysOf, outboxMessages } from '../../lib/outbox.ts';
import { annotate, tracedEach } from '../../lib/trace.ts';

config();
const processor = new BatchProcessor(EventType.DynamoDBStreams);

type Image = NonNullable<DynamoDBRecord['dynamodb']>['NewImage'];
// The Lambda event's attribute values are the wire format the SDK's unmarshall reads.
const imageOf = (image: Image) => (image ? unmarshall(image as Record<string, AttributeValue>) : undefined);

const route = async (record: DynamoDBRecord) => {
  logger.resetKeys();
  logger.appendKeys({ eventId: record.eventID, sequenceNumber: record.dynamodb?.SequenceNumber });
  const change: Change = {
    kind: record.eventName ?? 'MODIFY',
    newImage: imageOf(record.dynamodb?.NewImage),
    oldImage: imageOf(record.dynamodb?.OldImage),
  };
  const keys = logKeysOf(change.newImage ?? change.oldImage);
  logger.appendKeys(keys);
  annotate(keys);
  // In row order, one at a time: a failure leaves the rest to the redelivery, which sends them all again.
  for (const { queue, message } of outboxMessages(change)) {
    await sendToQueue(queue, message);
    logger.info('Outbox message sent', { queue });
  }
};

// In stream order, one at a time: each record's log keys are its own.
export const handler = middy(async (event: DynamoDBStreamEvent, context: Context) =>
  processPartialResponse(event, tracedEach('outbox-route', route), processor, {
    context,
    processInParallel: false,
  }),
).use(injectLambdaContext(logger, { resetKeys: true }));
