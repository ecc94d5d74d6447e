// The sandbox reserves' top-up (lib/ledger/sandbox-reserves.ts), run on a schedule: an EventBridge rule in
// AWS (infra/stack.ts), an interval on the local stack. A failed run throws: EventBridge retries it, then
// its dead-letter queue (alarmed) holds the event; the next run starts afresh anyway.
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { config } from '../../lib/config.ts';
import { topUpSandboxReserves } from '../../lib/ledger/sandbox-reserves.ts';
import { logger } from '../../lib/log.ts';

config();

export const handler = middy(async () => topUpSandboxReserves(new Date())).use(
  injectLambdaContext(logger, { resetKeys: true }),
);
