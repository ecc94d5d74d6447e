// One queue from lib/queues.ts with its dead-letter queue, both encrypted and TLS-only.
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { physicalDeadLetterQueueName, physicalQueueName } from '../../lib/queue-names.ts';
import type { QueueDefinition } from '../../lib/queues.ts';
import { retainedName } from '../retained-name.ts';

export interface WorkQueueProps {
  stage: string;
  definition: QueueDefinition;
  removalPolicy: RemovalPolicy;
}

export class WorkQueue extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: WorkQueueProps) {
    super(scope, id);
    const { stage, definition } = props;
    const common = {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      removalPolicy: props.removalPolicy,
    };
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      ...common,
      queueName: retainedName(this, physicalDeadLetterQueueName(stage, definition.name), props.removalPolicy),
      // The maximum: failed messages wait for a human (or a redrive) for as long as SQS allows.
      retentionPeriod: Duration.days(14),
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      ...common,
      // Physical names are shared with the local stack and the producers (lib/queue-names.ts).
      queueName: retainedName(this, physicalQueueName(stage, definition.name), props.removalPolicy),
      visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
      // SQS's default is 4 days, after which a message nobody received (a worker disabled or throttled
      // throughout) is deleted without reaching the DLQ. 7 days, half the DLQ's: a dead letter keeps its
      // first enqueue time, and must still be there when someone looks.
      retentionPeriod: Duration.days(7),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: definition.maxReceiveCount },
    });
  }
}
