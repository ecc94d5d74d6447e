// Consumes wallet-activations: each message opens one wallet's ledger account. Only failed messages
// are retried (partial batch response); a message that keeps failing, or never parses, ends in the DLQ.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { messageBody } from '../../lib/aws/message-body.ts';
import { config } from '../../lib/config.ts';
import { logger } from '../../lib/log.ts';
import { tracedEach } from '../../lib/trace.ts';
import { activateWallet } from '../../lib/wallets/activation.ts';
import { activationMessage } from '../../lib/wallets/activation-message.ts';

config();
const processor = new BatchProcessor(EventType.SQS);

const activate = async (record: SQSRecord) => {
  // Records are handled one at a time, so each one's log keys simply replace the previous one's.
  logger.resetKeys();
  logger.appendKeys({ messageId: record.messageId });
  const message = messageBody(record, activationMessage);
  const { environment, associationId, walletId } = message;
  logger.appendKeys({ environment, associationId, walletId });
  await activateWallet(message, new Date());
};

// One at a time, so each record's log keys are its own (the queue hands over one per batch today,
// lib/queues.ts, so that a slow activation never times out others with it).
export const handler = middy(async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, tracedEach('wallet-activation', activate), processor, {
    context,
    processInParallel: false,
  }),
).use(injectLambdaContext(logger, { resetKeys: true }));
