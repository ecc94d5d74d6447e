// The local SQS: fauxqs in-process, and the same queues (with their DLQs and redrive policies) that infra
// builds from lib/queues.ts.
import type { AddressInfo } from 'node:net';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  SetQueueAttributesCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { buildApp } from 'fauxqs';
import { physicalDeadLetterQueueName, physicalQueueName } from '../lib/queue-names.ts';
import { type QueueDefinition, queues } from '../lib/queues.ts';

export interface LocalSqs {
  /** Endpoint for an SQSClient, e.g. `http://127.0.0.1:4566`. */
  endpoint: string;
  stop(): Promise<void>;
}

export interface LocalQueue {
  queueUrl: string;
  queueArn: string;
  dlqUrl: string;
}

const loopback = '127.0.0.1';

/** Starts fauxqs in this process; `port: 0` picks a free port. */
export async function startSqs({ port }: { port: number }): Promise<LocalSqs> {
  // buildApp rather than startFauxqs: startFauxqs always listens on 0.0.0.0, and an unauthenticated
  // queue emulator has no business being reachable from the network.
  const app = buildApp({ logger: false });
  await app.listen({ port, host: loopback });
  const { port: boundPort } = app.server.address() as AddressInfo;
  return {
    endpoint: `http://${loopback}:${boundPort}`,
    stop: () => app.close(),
  };
}

/**
 * Creates each queue and its DLQ, then (re)applies the definition's attributes. Safe to run on every start:
 * create-then-set converges an existing queue to the current definition, where passing attributes to
 * CreateQueue would fail with QueueNameExists as soon as a definition changed.
 */
export async function ensureQueues(
  sqs: SQSClient,
  stage: string,
  definitions: QueueDefinition[] = queues,
): Promise<Map<string, LocalQueue>> {
  const ensured = new Map<string, LocalQueue>();
  for (const definition of definitions) {
    ensured.set(definition.name, await ensureQueue(sqs, stage, definition));
  }
  return ensured;
}

async function ensureQueue(sqs: SQSClient, stage: string, definition: QueueDefinition): Promise<LocalQueue> {
  const dlqUrl = await createQueue(sqs, physicalDeadLetterQueueName(stage, definition.name));
  const queueUrl = await createQueue(sqs, physicalQueueName(stage, definition.name));
  await sqs.send(
    new SetQueueAttributesCommand({
      QueueUrl: queueUrl,
      Attributes: {
        VisibilityTimeout: String(definition.visibilityTimeoutSeconds),
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: await queueArn(sqs, dlqUrl),
          maxReceiveCount: definition.maxReceiveCount,
        }),
      },
    }),
  );
  return { queueUrl, queueArn: await queueArn(sqs, queueUrl), dlqUrl };
}

async function createQueue(sqs: SQSClient, name: string): Promise<string> {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name }));
  if (!QueueUrl) throw new Error(`CreateQueue ${name} returned no QueueUrl`);
  return QueueUrl;
}

async function queueArn(sqs: SQSClient, queueUrl: string): Promise<string> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }),
  );
  const arn = Attributes?.QueueArn;
  if (!arn) throw new Error(`GetQueueAttributes ${queueUrl} returned no QueueArn`);
  return arn;
}
