// The outbox reconciler's schedule (lib/outbox-reconciler.ts): an EventBridge rule invokes it every few
// minutes. An event EventBridge could not deliver (the function throttled or missing past its retries)
// goes to a dead-letter queue of its own, alarmed like every other; a run that fails shows in the
// function's Errors alarm, and the next run starts afresh.
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

export class ReconcilerSchedule extends Construct {
  readonly rule: events.Rule;
  readonly deadLetterQueue: sqs.Queue;

  constructor(
    scope: Construct,
    id: string,
    props: { stage: string; fn: IFunction; removalPolicy: RemovalPolicy },
  ) {
    super(scope, id);
    this.deadLetterQueue = deadLetterQueue(this, 'DeadLetterQueue', {
      stage: props.stage,
      name: RECONCILER_DEAD_LETTERS_QUEUE,
      removalPolicy: props.removalPolicy,
      holds: 'the schedule target’s',
    });
    this.rule = new events.Rule(this, 'Rule', {
      description: 'Runs the outbox reconciler: re-drives records whose outbox work is owed past the bound.',
      schedule: events.Schedule.rate(RECONCILER_RATE),
      targets: [
        new targets.LambdaFunction(props.fn, {
          deadLetterQueue: this.deadLetterQueue,
          retryAttempts: 2,
          // A run older than the next one is worth nothing: the next one reads the index afresh.
          maxEventAge: RECONCILER_RATE,
        }),
      ],
    });
  }
}
