// Sending to the work queues. Each function learns a queue's URL from QUEUE_URL_<NAME> (set by infra,
// and by the local stack), so the code never builds URLs or knows where it runs.
import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { queueUrlVariable } from '../queue-names.ts';
import { withoutSdkLogging } from './sdk-logging.ts';

// Keep the configured endpoint even when a queue URL names another host (fauxqs writes sqs.<region>.localhost).
const sqs = withoutSdkLogging(new SQSClient({ useQueueUrlAsEndpoint: false }));

/** SQS's limits on one SendMessageBatch: 10 messages, 256 KiB of bodies. */
const BATCH_MESSAGES = 10;
const BATCH_BYTES = 256 * 1024;

function queueUrlOf(queueName: string): string {
  const variable = queueUrlVariable(queueName);
  const queueUrl = process.env[variable];
  if (!queueUrl) throw new Error(`${variable} is not configured`);
  return queueUrl;
}

export async function sendToQueue(queueName: string, message: unknown, delaySeconds = 0): Promise<void> {
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: queueUrlOf(queueName),
      MessageBody: JSON.stringify(message),
      DelaySeconds: delaySeconds,
    }),
  );
}

/**
 * Sends `messages` to the queue in as few SendMessageBatch calls as SQS allows (10 a call, 256 KiB):
 * the outbox router's messages of one stream batch. Resolves with the positions of those not sent (a call
 * that failed, or an entry SQS refused); throws only when the queue is not configured.
 */
export async function sendAllToQueue(queueName: string, messages: unknown[]): Promise<Set<number>> {
  const queueUrl = queueUrlOf(queueName);
  const bodies = messages.map((message) => JSON.stringify(message));
  const batches: number[][] = [];
  let batch: number[] = [];
  let bytes = 0;
  for (const [i, body] of bodies.entries()) {
    const size = Buffer.byteLength(body);
    if (batch.length === BATCH_MESSAGES || (batch.length > 0 && bytes + size > BATCH_BYTES)) {
      batches.push(batch);
      [batch, bytes] = [[], 0];
    }
    batch.push(i);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  const notSent = new Set<number>();
  await Promise.all(
    batches.map(async (positions) => {
      try {
        const { Failed = [] } = await sqs.send(
          new SendMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: positions.map((i) => ({ Id: String(i), MessageBody: bodies[i] })),
          }),
        );
        for (const failed of Failed) notSent.add(Number(failed.Id));
      } catch {
        for (const i of positions) notSent.add(i);
      }
    }),
  );
  return notSent;
}
