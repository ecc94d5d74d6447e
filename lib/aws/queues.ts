// Sending to the work queues. Each function learns a queue's URL from QUEUE_URL_<NAME> (set by infra,
// and by the local stack), so the code never builds URLs or knows where it runs.
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { queueUrlVariable } from '../queue-names.ts';

// Keep the configured endpoint even when a queue URL names another host (fauxqs writes sqs.<region>.localhost).
const sqs = new SQSClient({ useQueueUrlAsEndpoint: false });

export async function sendToQueue(queueName: string, message: unknown, delaySeconds = 0): Promise<void> {
  const variable = queueUrlVariable(queueName);
  const queueUrl = process.env[variable];
  if (!queueUrl) throw new Error(`${variable} is not configured`);
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: queueUrl,
      MessageBody: JSON.stringify(message),
      DelaySeconds: delaySeconds,
    }),
  );
}
