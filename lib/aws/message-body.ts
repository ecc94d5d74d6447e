// The body of an SQS message, parsed with a zod schema through Powertools Parser instead of cast.
// A body that does not parse fails as its own batch item (partial batch response): the queue offers it
// again until maxReceiveCount, then its redrive policy moves it to the dead-letter queue, which raises
// an alarm and keeps it to read and redrive once a worker understands it. Dropping it would lose it;
// failing the whole batch would hold back the valid messages beside it.
import { parse } from '@aws-lambda-powertools/parser';
import { JSONStringified } from '@aws-lambda-powertools/parser/helpers';
import type { SQSRecord } from 'aws-lambda';
import type * as z from 'zod';
import { logger } from '../log.ts';

export class MalformedMessage extends Error {
  override name = 'MalformedMessage';
}

export function messageBody<S extends z.ZodType>(record: SQSRecord, schema: S): z.output<S> {
  const parsed = parse(record.body, undefined, JSONStringified(schema), true);
  if (parsed.success) return parsed.data as z.output<S>;
  const issues = (parsed.error.cause as { path?: readonly unknown[]; message: string }[]).map(
    ({ path = [], message }) => `${['body', ...path].join('.')}: ${message}`,
  );
  logger.warn('Malformed message: failed until the redrive policy moves it to the dead-letter queue', {
    messageId: record.messageId,
    receiveCount: record.attributes.ApproximateReceiveCount,
    issues,
  });
  throw new MalformedMessage(`Message ${record.messageId} does not parse: ${issues.join('; ')}`);
}
