// Consumes wallet-activations: each message opens one wallet's ledger account. Only failed messages
// are retried (partial batch response); a message that keeps failing ends in the DLQ.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { config } from '../../lib/config.ts';
import { activateWallet } from '../../lib/wallets/activation.ts';
import type { ActivationMessage } from '../../lib/wallets/service.ts';

config();
const processor = new BatchProcessor(EventType.SQS);

const activate = async (record: SQSRecord) =>
  activateWallet(JSON.parse(record.body) as ActivationMessage, new Date());

// One at a time: every activation is a transaction of the one funding account, so parallel ones only
// race for its sequence number (tx_bad_seq) and rebuild.
export const handler = async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, activate, processor, { context, processInParallel: false });
