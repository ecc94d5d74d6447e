// Consumes webhook-events (from the table's stream, through the outbox): each event becomes one delivery
// per subscribed active registration (lib/webhooks/dispatch.ts). Events are independent: a batch is
// handled side by side, and a failed event alone returns to the queue; a tenant's events in one batch share
// one read of its registrations.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { messageBody } from '../../lib/aws/message-body.ts';
import { config } from '../../lib/config.ts';
import { logger } from '../../lib/log.ts';
import { tracedEach } from '../../lib/trace.ts';
import { batchRegistrations, dispatchEvent } from '../../lib/webhooks/dispatch.ts';
import { eventMessage } from '../../lib/webhooks/event-message.ts';

config();
const processor = new BatchProcessor(EventType.SQS);

export const handler = middy(async (event: SQSEvent, context: Context) => {
  // A tenant's events in this batch share one read of its registrations.
  const registrationsOf = batchRegistrations();
  const dispatch = async (record: SQSRecord) => {
    await dispatchEvent(messageBody(record, eventMessage), new Date(), registrationsOf);
  };
  return processPartialResponse(event, tracedEach('webhook-dispatch', dispatch), processor, {
    context,
    processInParallel: true,
  });
}).use(injectLambdaContext(logger, { resetKeys: true }));
