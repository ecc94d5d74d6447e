// Cursor pagination as the API takes it: `limit` 1..100 (default 20, above 100 means 100) and an opaque
// `cursor` (sealed and checked by lib/db/cursor.ts).
import * as z from '../zod.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** The largest `limit` taken (and read as MAX_LIMIT): nine digits. */
export const LARGEST_LIMIT = 999_999_999;

export const limitParam = z.pipe(
  z.optional(z.string()),
  z.transform((value: string | undefined, ctx) => {
    if (value === undefined) return DEFAULT_LIMIT;
    if (!/^\d{1,9}$/.test(value) || Number(value) < 1) {
      ctx.issues.push({
        code: 'custom',
        message: 'must be a whole number of at least 1 (above 100 means 100)',
        input: value,
      });
      return z.NEVER;
    }
    return Math.min(Number(value), MAX_LIMIT);
  }),
);

export const cursorParam = z.optional(z.string().check(z.minLength(1), z.maxLength(2048)));

/** The query members every paginated collection takes. */
export const pageQueryShape = { limit: limitParam, cursor: cursorParam };

export interface Page<T> {
  data: T[];
  pagination: { nextCursor: string | null; hasMore: boolean };
}
