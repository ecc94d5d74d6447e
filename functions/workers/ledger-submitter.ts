// Consumes ledger-submissions: each message resumes one ledger intent that a request left pending (today
// sandbox funding; payments join with their own kind), from its submission record, so it settles without
// the client's retry and never lands twice. A still-pending intent fails its message and SQS delivers it
// again after the visibility timeout; one that never settles, or a message that never parses, ends in
// the DLQ.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { messageBody } from '../../lib/aws/message-body.ts';
import { config } from '../../lib/config.ts';
import { logger } from '../../lib/log.ts';
import { fundingResumeMessage } from '../../lib/wallets/funding-message.ts';
import { resumeFunding } from '../../lib/wallets/sandbox.ts';

config();
const processor = new BatchProcessor(EventType.SQS);

const resume = async (record: SQSRecord) => {
  logger.resetKeys();
  logger.appendKeys({ messageId: record.messageId });
  const message = messageBody(record, fundingResumeMessage);
  logger.appendKeys({ environment: message.environment, intentId: message.intentId });
  await resumeFunding(message);
};

// One message a batch (lib/queues.ts): a resumption may take its whole ledger budget, and intents run side
// by side as separate invocations, each on a channel account of its own.
export const handler = middy(async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, resume, processor, { context, processInParallel: false }),
).use(injectLambdaContext(logger, { resetKeys: true }));
