// SES's bounces and complaints of beneficiary notices, as the configuration set's event destination
// publishes them to EventBridge (infra/constructs/notices.ts: a rule on `aws.ses` invokes this): each
// marks its address and the record whose notice it was (lib/notifications/feedback.ts). An event that
// does not parse is logged and dropped: EventBridge would only deliver it again unchanged.
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, EventBridgeEvent } from 'aws-lambda';
import { config } from '../../lib/config.ts';
import { logger } from '../../lib/log.ts';
import { applySesEvent, sesEvent } from '../../lib/notifications/feedback.ts';

config();

export const handler = middy(async (event: EventBridgeEvent<string, unknown>, _context: Context) => {
  const parsed = sesEvent.safeParse(event.detail);
  if (!parsed.success) {
    logger.error('SES feedback that is not an SES event', { id: event.id, detailType: event['detail-type'] });
    return;
  }
  await applySesEvent(parsed.data, new Date());
}).use(injectLambdaContext(logger, { resetKeys: true }));
