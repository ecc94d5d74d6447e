// The body of an SQS message, parsed with a zod schema through Powertools Parser instead of cast.
// A body that does not parse fails as its own batch item (partial batch response): the queue offers it
// again until maxReceiveCount, then its redrive policy moves it to the dead-letter queue, which raises
// an alarm and keeps it to read and redrive once a worker understands it. Dropping it would lose it;
// failing the whole batch would hold back the valid messages beside it.
import { parse } from '@aws-lambda-powertools/parser';
import type { SQSRecord } from 'aws-lambda';
import { logger } from '../log.ts';
import * as z from '../zod.ts';

export class MalformedMessage extends Error {
  override name = 'MalformedMessage';
}

/**
 * JSON text holding `schema`: Parser's own `JSONStringified` helper does the same, but imports classic
 * zod by its named `z` export, which would bundle all of classic zod and every locale into the worker.
 */
const jsonText = <S extends z.core.$ZodType>(schema: S) =>
  z.pipe(
    z.pipe(
      z.string(),
      z.transform((text: string, ctx) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          ctx.issues.push({ code: 'custom', message: 'is not JSON', input: text });
          return z.NEVER;
        }
      }),
    ),
    schema,
  );

export function messageBody<S extends z.core.$ZodType>(record: SQSRecord, schema: S): z.output<S> {
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
