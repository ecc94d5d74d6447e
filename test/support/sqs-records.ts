// A message as Lambda's SQS event source hands it to a worker, for a test that calls a worker's handler
// itself (a redelivery, a message no queue would carry): what local/sqs-poller.ts builds from a
// received message, without a queue behind it.
import { randomUUID } from 'node:crypto';
import type { SQSRecord } from 'aws-lambda';

/** `body` from the local queue named `queue`, on its `receiveCount`th receipt. */
export function sqsRecord(queue: string, body: string, receiveCount = 1): SQSRecord {
  const now = String(Date.now());
  return {
    messageId: randomUUID(),
    receiptHandle: randomUUID(),
    body,
    attributes: {
      ApproximateReceiveCount: String(receiveCount),
      SentTimestamp: now,
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: now,
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:local:000000000000:${queue}`,
    awsRegion: 'local',
  };
}
