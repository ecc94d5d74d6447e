// The local stack runs invocations of one function side by side in one process (local/invocation.ts).
// Two invocations of a worker shaped like ours (Middy, the logger's per-invocation keys, Powertools'
// partial batch response), interleaved: the first is still running when the second starts, fails while
// the second runs, and the second ends first. Each must report its own failures and log its own keys.

import assert from 'node:assert/strict';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, it } from 'vitest';
import { invokeIsolated } from '../../local/invocation.ts';
import { lambdaContext } from '../../local/lambda-event.ts';
import { captureLogs } from '../support/logs.ts';
import { sqsRecord } from '../support/sqs-records.ts';

function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('invocations side by side in the local stack', () => {
  it('keep their own batch failures and log keys', async () => {
    const firstStarted = deferred();
    const secondStarted = deferred();
    const firstFailed = deferred();
    // Its own logger, at INFO whatever level the test stack logs at: a warm invocation resets the level.
    const logger = new Logger({ serviceName: 'worker', logLevel: 'INFO' });
    const processor = new BatchProcessor(EventType.SQS);
    const handle = async (record: SQSRecord) => {
      logger.appendKeys({ body: record.body });
      if (record.body === 'fails') {
        firstStarted.resolve();
        await secondStarted.promise;
        logger.info('Message handled');
        firstFailed.resolve();
        throw new Error('refused');
      }
      secondStarted.resolve();
      await firstFailed.promise;
      logger.info('Message handled');
    };
    const handler = middy(async (event: SQSEvent, context: Context) =>
      processPartialResponse(event, handle, processor, { context, throwOnFullBatchFailure: false }),
    ).use(injectLambdaContext(logger, { resetKeys: true }));

    const logs = captureLogs();
    try {
      const failing = sqsRecord('worker', 'fails');
      const passing = sqsRecord('worker', 'passes');
      const first = invokeIsolated(handler, { Records: [failing] }, lambdaContext('worker'));
      await firstStarted.promise;
      const second = invokeIsolated(handler, { Records: [passing] }, lambdaContext('worker'));

      assert.deepEqual(await second, { batchItemFailures: [] });
      assert.deepEqual(await first, { batchItemFailures: [{ itemIdentifier: failing.messageId }] });
      const handled = logs.lines.filter((line) => line.message === 'Message handled');
      assert.deepEqual(handled.map((line) => line.body).sort(), ['fails', 'passes']);
    } finally {
      logs.restore();
    }
  });
});
