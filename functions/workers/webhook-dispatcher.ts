// Consumes webhook-events (from the table's stream, through the outbox): each event becomes one delivery
// per subscribed active registration (lib/webhooks/dispatch.ts). Events are independent: a batch is
// handled side by side, and a failed event alone returns to the queue.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { messageBody } from '../../lib/aws/message-body.ts';
import { config } from '../../lib/config.ts';
import { logger } from '../../lib/log.ts';
import { tracedEach } from '../../lib/trace.ts';
import { dispatchEvent } from '../../lib/webhooks/dispatch.ts';
import { eventMessage } from '../../lib/webhooks/event-message.ts';

config();
const processor = new BatchProcessor(EventType.SQS);

const dispatch = async (record: SQSRecord) => {
  const message = messageBody(record, eventMessage);
  await dispatchEvent(message, new Date());
};

export const handler = middy(async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, tracedEach('webhook-dispatch', dispatch), processor, {
    context,
    processInParallel: true,
  }),
).use(injectLambdaContext(logger, { resetKeys: true }));
