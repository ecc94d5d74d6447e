// The outbox reconciler (lib/outbox-reconciler.ts), run on a schedule: an EventBridge rule in AWS
// (infra/stack.ts), an interval on the local stack (local/stack.ts). A failed run throws: EventBridge
// retries it, then its dead-letter queue (alarmed) holds the event; the next run starts afresh anyway.
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { config } from '../../lib/config.ts';
import { logger } from '../../lib/log.ts';
import { reconcile } from '../../lib/outbox-reconciler.ts';

config();

export const handler = middy(async () => reconcile()).use(injectLambdaContext(logger, { resetKeys: true }));
