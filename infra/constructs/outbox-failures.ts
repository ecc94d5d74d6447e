// Where the outbox's stream event source describes a batch it gave up on (shard, sequence numbers,
// reason): the records themselves stay in the stream for 24 hours, to be read again from there. Encrypted
// and TLS-only like the work queues.
import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { physicalQueueName } from '../../lib/queue-names.ts';
import { retainedName } from '../retained-name.ts';

export const OUTBOX_FAILURES_QUEUE = 'outbox-failures';

export class OutboxFailures extends Construct {
  readonly queue: sqs.Queue;

  constructor(scope: Construct, id: string, props: { stage: string; removalPolicy: RemovalPolicy }) {
    super(scope, id);
    this.queue = new sqs.Queue(this, 'Queue', {
      queueName: retainedName(
        this,
        physicalQueueName(props.stage, OUTBOX_FAILURES_QUEUE),
        props.removalPolicy,
      ),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      removalPolicy: props.removalPolicy,
      // The maximum: a failure waits for a human for as long as SQS allows.
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself a dead-letter destination: the on-failure destination of the outbox stream ' +
        'event source, alarmed on any message. Nothing consumes it, so a DLQ behind it would never fill.',
    });
  }
}
