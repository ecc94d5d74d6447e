// Where the outbox's stream event source describes a batch it gave up on (shard, sequence numbers,
// reason): the records themselves stay in the stream for 24 hours, to be read again from there. Encrypted
// and TLS-only like the work queues.
import type { RemovalPolicy } from 'aws-cdk-lib';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { deadLetterQueue } from './dead-letter-queue.ts';

export const OUTBOX_FAILURES_QUEUE = 'outbox-failures';

export class OutboxFailures extends Construct {
  readonly queue: sqs.Queue;

  constructor(scope: Construct, id: string, props: { stage: string; removalPolicy: RemovalPolicy }) {
    super(scope, id);
    this.queue = deadLetterQueue(this, 'Queue', {
      stage: props.stage,
      name: OUTBOX_FAILURES_QUEUE,
      removalPolicy: props.removalPolicy,
      holds: 'the on-failure destination of the outbox stream event source',
    });
  }
}
