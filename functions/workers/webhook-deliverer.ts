// Consumes webhook-deliveries: one attempt of one delivery per message (lib/webhooks/delivery.ts).
// Attempts of a batch run side by side, so a slow receiver (up to the 10 s attempt timeout) holds back
// no other delivery of its batch, and batches run as separate invocations (lib/queues.ts).
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { messageBody } from '../../lib/aws/message-body.ts';
import { config } from '../../lib/config.ts';
import { logger } from '../../lib/log.ts';
import { attemptDelivery } from '../../lib/webhooks/delivery.ts';
import { deliveryMessage } from '../../lib/webhooks/delivery-message.ts';

config();
const processor = new BatchProcessor(EventType.SQS);

const deliver = async (record: SQSRecord) => attemptDelivery(messageBody(record, deliveryMessage));

export const handler = middy(async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, deliver, processor, { context, processInParallel: true }),
).use(injectLambdaContext(logger, { resetKeys: true }));
