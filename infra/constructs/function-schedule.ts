// A function run on a schedule: an EventBridge rule invokes it every `rate`. An event EventBridge could
// not deliver (the function throttled or missing past its retries) goes to a dead-letter queue of its
// own, alarmed like every other; a run that fails shows in the function's Errors alarm, and the next run
// starts afresh. The outbox reconciler (lib/outbox-reconciler.ts) and the sandbox reserves' top-up
// (lib/ledger/sandbox-reserves.ts) run so.
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { deadLetterQueue } from './dead-letter-queue.ts';

export const RECONCILER_DEAD_LETTERS_QUEUE = 'reconciler-dlq';
/** How often it runs: the bound (RECONCILE_AFTER_SECONDS, 15 min) plus this is how late a stuck record is re-driven. */
export const RECONCILER_RATE = Duration.minutes(5);
export const SANDBOX_RESERVES_DEAD_LETTERS_QUEUE = 'sandbox-reserves-dlq';
/** A drained funding account waits at most this long for its lumens (activations retry meanwhile). */
export const SANDBOX_RESERVES_RATE = Duration.minutes(15);

export class FunctionSchedule extends Construct {
  readonly rule: events.Rule;
  readonly deadLetterQueue: sqs.Queue;

  constructor(
    scope: Construct,
    id: string,
    props: {
      stage: string;
      fn: IFunction;
      removalPolicy: RemovalPolicy;
      description: string;
      rate: Duration;
      deadLetterQueueName: string;
    },
  ) {
    super(scope, id);
    this.deadLetterQueue = deadLetterQueue(this, 'DeadLetterQueue', {
      stage: props.stage,
      name: props.deadLetterQueueName,
      removalPolicy: props.removalPolicy,
      holds: 'the schedule target’s',
    });
    this.rule = new events.Rule(this, 'Rule', {
      description: props.description,
      schedule: events.Schedule.rate(props.rate),
      targets: [
        new targets.LambdaFunction(props.fn, {
          deadLetterQueue: this.deadLetterQueue,
          retryAttempts: 2,
          // A run older than the next one is worth nothing: the next one reads afresh.
          maxEventAge: props.rate,
        }),
      ],
    });
  }
}
