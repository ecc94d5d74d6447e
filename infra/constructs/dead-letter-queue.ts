// A queue where failures end: a rule target's dead letters, or a stream event source's on-failure
// destination. Encrypted and TLS-only like the work queues, kept as long as SQS allows, alarmed on any
// message by the stack (infra/constructs/alarm-topic.ts) and consumed by nobody.
import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { physicalQueueName } from '../../lib/queue-names.ts';
import { retainedName } from '../retained-name.ts';

export interface DeadLetterQueueProps {
  stage: string;
  /** The queue's name (lib/queue-names.ts makes it the stage's). */
  name: string;
  removalPolicy: RemovalPolicy;
  /** Whose dead letters it holds, for cdk-nag's acknowledgment: "the schedule target's". */
  holds: string;
}

export function deadLetterQueue(scope: Construct, id: string, props: DeadLetterQueueProps): sqs.Queue {
  const queue = new sqs.Queue(scope, id, {
    queueName: retainedName(scope, physicalQueueName(props.stage, props.name), props.removalPolicy),
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    removalPolicy: props.removalPolicy,
    // The maximum: a failure waits for a human for as long as SQS allows.
    retentionPeriod: Duration.days(14),
  });
  Validations.of(queue).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason:
      `This queue is itself a dead-letter queue: ${props.holds}, alarmed on any message. Nothing ` +
      'consumes it, so a DLQ behind it would never fill.',
  });
  return queue;
}
