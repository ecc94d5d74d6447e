// Consumes ledger-submissions: accepted payments (from their records' inserts, through the outbox) and
// sandbox funding payments a request left pending. Each message names one ledger intent, executed or
// resumed from its records, so it settles without the client's retry and never lands twice. A payment
// still in flight is re-queued with a delay (lib/payments/execution.ts); a funding still pending fails its
// message and SQS delivers it again after the visibility timeout; one that never settles, or a message
// that never parses, ends in the DLQ.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { messageBody } from '../../lib/aws/message-body.ts';
import { config } from '../../lib/config.ts';
import { logger } from '../../lib/log.ts';
import { executeTransaction } from '../../lib/payments/execution.ts';
import { paymentMessage } from '../../lib/payments/message.ts';
import { tracedEach } from '../../lib/trace.ts';
import { fundingResumeMessage } from '../../lib/wallets/funding-message.ts';
import { resumeFunding } from '../../lib/wallets/sandbox.ts';
import * as z from '../../lib/zod.ts';

config();
const processor = new BatchProcessor(EventType.SQS);

const ledgerSubmission = z.discriminatedUnion('kind', [paymentMessage, fundingResumeMessage]);

const submit = async (record: SQSRecord) => {
  logger.resetKeys();
  logger.appendKeys({ messageId: record.messageId });
  const message = messageBody(record, ledgerSubmission);
  logger.appendKeys({ environment: message.environment, kind: message.kind });
  if (message.kind === 'payment')
    return executeTransaction(message, { firstDelivery: record.attributes.ApproximateReceiveCount === '1' });
  logger.appendKeys({ intentId: message.intentId });
  await resumeFunding(message);
};

// One message a batch (lib/queues.ts): each may take its whole ledger budget, and intents run side by
// side as separate invocations, each on a channel account of its own.
export const handler = middy(async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, tracedEach('ledger-submission', submit), processor, {
    context,
    processInParallel: false,
  }),
).use(injectLambdaContext(logger, { resetKeys: true }));
