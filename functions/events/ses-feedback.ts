// SES's bounces and complaints of beneficiary notices, as the configuration set's event destination
// publishes them to its SNS topic (infra/constructs/notices.ts): each marks its address and the record
// whose notice it was (lib/notifications/feedback.ts). A message that does not parse is logged and
// dropped: SNS would only retry it unchanged.
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SNSEvent } from 'aws-lambda';
import { config } from '../../lib/config.ts';
import { logger } from '../../lib/log.ts';
import { applySesEvent, sesEvent } from '../../lib/notifications/feedback.ts';

config();

export const handler = middy(async (event: SNSEvent, _context: Context) => {
  for (const record of event.Records) {
    let body: unknown;
    try {
      body = JSON.parse(record.Sns.Message);
    } catch {
      body = undefined;
    }
    const parsed = sesEvent.safeParse(body);
    if (!parsed.success) {
      logger.error('SES feedback that is not an SES event', { messageId: record.Sns.MessageId });
      continue;
    }
    await applySesEvent(parsed.data, new Date());
  }
}).use(injectLambdaContext(logger, { resetKeys: true }));
