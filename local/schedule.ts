// A local stand-in for an EventBridge schedule: invokes a function every `intervalMs` until stopped, one
// run at a time (the reserved concurrency of 1 in production); a run that throws is logged and the next
// one comes on time, as a failed scheduled invocation does in AWS.
import type { Context } from 'aws-lambda';
import { invokeIsolated } from './invocation.ts';
import { lambdaContext } from './lambda-event.ts';
import { type PollerLogger, pause } from './sqs-poller.ts';

export type ScheduledHandler = (event: Record<string, unknown>, context: Context) => Promise<unknown>;

export interface Schedule {
  /** Stops the schedule, lets a run already started finish, and resolves once it has. */
  stop(): Promise<void>;
}

export function startSchedule(options: {
  intervalMs: number;
  handler: ScheduledHandler;
  functionName: string;
  logger?: PollerLogger;
}): Schedule {
  const stopping = new AbortController();
  const logger = options.logger ?? console;
  const loop = (async () => {
    for (;;) {
      await pause(options.intervalMs, stopping.signal);
      if (stopping.signal.aborted) return;
      try {
        await invokeIsolated(
          options.handler,
          { source: 'local.schedule' },
          lambdaContext(options.functionName),
        );
      } catch (error) {
        logger.error('scheduled function failed; the next run comes on time', {
          functionName: options.functionName,
          error,
        });
      }
    }
  })();
  return {
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}
