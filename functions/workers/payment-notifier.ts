// Consumes payment-notifications (completed records that asked to notify their beneficiary, through the
// outbox): each message is one notice, sent once by its event id (lib/notifications/service.ts). A channel
// that fails re-queues the message with a delay; one that failed for good fails its message until the
// redrive policy dead-letters it.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { messageBody } from '../../lib/aws/message-body.ts';
import { config } from '../../lib/config.ts';
import { logger } from '../../lib/log.ts';
import { noticeMessage } from '../../lib/notifications/message.ts';
import { deliverNotice } from '../../lib/notifications/service.ts';

config();
const processor = new BatchProcessor(EventType.SQS);

const notify = async (record: SQSRecord) => {
  logger.resetKeys();
  logger.appendKeys({ messageId: record.messageId });
  const message = messageBody(record, noticeMessage);
  logger.appendKeys({ transactionRecordId: message.transactionRecordId, eventId: message.eventId });
  await deliverNotice(message, new Date());
};

export const handler = middy(async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, notify, processor, { context, processInParallel: false }),
).use(injectLambdaContext(logger, { resetKeys: true }));
