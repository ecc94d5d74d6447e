// The body of an SQS message, parsed with a zod schema through Powertools Parser instead of cast.
// A body that does not parse fails as its own batch item (partial batch response): the queue offers it
// again until maxReceiveCount, then its redrive policy moves it to the dead-letter queue, which raises
// an alarm and keeps it to read and redrive once a worker understands it. Dropping it would lose it;
// failing the whole batch would hold back the valid messages beside it.
import { parse } from '@aws-lambda-powertools/parser';
import type { SQSRecord } from 'aws-lambda';
import * as z from 'zod';
import { logger } from '../log.ts';

export class MalformedMessage extends Error {
  override name = 'MalformedMessage';
}

/**
 * JSON text holding `schema`: Parser's own `JSONStringified` helper does the same, but imports zod by its
 * named export, which bundles every zod locale into the worker (~350 KiB).
 */
const jsonText = <S extends z.ZodType>(schema: S) =>
  z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'is not JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);

export function messageBody<S extends z.ZodType>(record: SQSRecord, schema: S): z.output<S> {
  const parsed = parse(record.body, undefined, jsonText(schema), true);
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
