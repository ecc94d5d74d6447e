// Consumes webhook-slow-deliveries: attempts to receivers marked slow (lib/webhooks/delivery.ts), apart
// from the main lane so they hold none of its invocations.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { messageBody } from '../../lib/aws/message-body.ts';
import { config } from '../../lib/config.ts';
import { logger } from '../../lib/log.ts';
import { tracedEach } from '../../lib/trace.ts';
import { attemptDelivery } from '../../lib/webhooks/delivery.ts';
import { deliveryMessage } from '../../lib/webhooks/delivery-message.ts';

config();
const processor = new BatchProcessor(EventType.SQS);

const deliver = async (record: SQSRecord) => attemptDelivery(messageBody(record, deliveryMessage), 'slow');

export const handler = middy(async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, tracedEach('webhook-delivery', deliver), processor, {
    context,
    processInParallel: true,
  }),
).use(injectLambdaContext(logger, { resetKeys: true }));
