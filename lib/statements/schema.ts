// The statement's query (docs/decisions/statements.md): all four members required, each missing one named.
// Dates are `YYYY-MM-DD` (a whole UTC day: from its first instant, to its last for endDate) or ISO 8601
// instants with a zone (taken as given, to the second the ledger closes at). The range may not start after it
// ends, reach past now, or span more than MAX_RANGE_DAYS.
import { assetCodeParam } from '../assets/schema.ts';
import { pageQueryShape } from '../http/pagination.ts';
import { uuidField } from '../http/uuid-field.ts';
import * as z from '../zod.ts';

export const MAX_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;

/** A bound as given: a whole day (UTC) or an instant; `first` and `last` are the instants it covers. */
export interface DateBound {
  first: number;
  last: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

const dateBound = z.pipe(
  z.string(),
  z.transform((text: string, ctx): DateBound => {
    const ms = Date.parse(DAY.test(text) ? `${text}T00:00:00Z` : text);
    const valid = (DAY.test(text) || INSTANT.test(text)) && Number.isFinite(ms);
    // A day that does not exist (2026-02-30) parses to another one: refuse it rather than move it.
    if (!valid || (DAY.test(text) && new Date(ms).toISOString().slice(0, 10) !== text)) {
      ctx.issues.push({
        code: 'custom',
        message: 'must be a date (YYYY-MM-DD, UTC) or an ISO 8601 instant with a zone',
        input: text,
      });
      return z.NEVER;
    }
    return DAY.test(text) ? { first: ms, last: ms + DAY_MS - 1 } : { first: ms, last: ms };
  }),
);

export const statementQuery = z
  .strictObject({
    ...pageQueryShape,
    walletId: uuidField,
    assetCode: assetCodeParam,
    startDate: dateBound,
    endDate: dateBound,
  })
  .check(
    z.superRefine((query, ctx) => {
      const now = Date.now();
      const start = query.startDate.first;
      const end = query.endDate.last;
      if (query.startDate.first > now)
        ctx.addIssue({ code: 'custom', path: ['startDate'], message: 'must not be in the future' });
      if (query.endDate.first > now)
        ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'must not be in the future' });
      if (start > end)
        ctx.addIssue({ code: 'custom', path: ['startDate'], message: 'must not be after endDate' });
      else if (end + 1 - start > MAX_RANGE_DAYS * DAY_MS)
        ctx.addIssue({
          code: 'custom',
          path: ['endDate'],
          message: `must be at most ${MAX_RANGE_DAYS} days after startDate`,
        });
    }),
  );
export type StatementQuery = z.infer<typeof statementQuery>;
