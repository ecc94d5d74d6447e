// Response shapes every route shares: a page of a collection and the RFC 7807 problem of each status.
// They describe what lib/db/paginate.ts and lib/http/problem.ts produce; the OpenAPI document is
// generated from them and the contract check holds every response of the test suite to it.
import * as z from '../zod.ts';
import { MAX_FIELD_ERRORS, type ProblemStatus, problemKinds } from './problem.ts';

/** `{data, pagination}`: what every cursor-paginated list answers. */
export const pageOf = <T extends z.core.SomeType>(item: T) =>
  z.strictObject({
    data: z.array(item),
    pagination: z.strictObject({
      nextCursor: z
        .nullable(z.string().check(z.minLength(1)))
        .check(z.describe('Opaque; pass it as `cursor` for the next page. null on the last page.')),
      hasMore: z.boolean(),
    }),
  });

export const fieldError = z.strictObject({
  field: z
    .string()
    .check(z.describe('The member path in the body (`transfers.0.amount`), or the query or path parameter.')),
  message: z.string(),
});

/** Any problem body (RFC 7807), whatever its status. */
export const problemBody = z.strictObject({
  type: z.url().check(z.describe('The errors base URL and a slug naming the kind of error (`…/not-found`).')),
  title: z.string(),
  status: z.number().check(z.int(), z.gte(400), z.lte(599)),
  detail: z.string(),
  instance: z.string().check(z.describe('The request path.')),
  requestId: z.string().check(z.describe('The same value as the X-Request-Id response header.')),
  errors: z
    .optional(z.array(fieldError).check(z.minLength(1), z.maxLength(MAX_FIELD_ERRORS)))
    .check(z.describe(`Present when fields are at fault: the first ${MAX_FIELD_ERRORS}.`)),
  moreErrors: z
    .optional(z.number().check(z.int(), z.gte(1)))
    .check(
      z.describe(`How many field errors there were beyond the ${MAX_FIELD_ERRORS} listed; absent when none.`),
    ),
});

/** The problem body of one status: its slug, title and status are fixed (lib/http/problem.ts problemKinds). */
export function problemBodyOf(status: ProblemStatus) {
  const { slug, title } = problemKinds[status];
  return z.extend(problemBody, {
    type: z.url().check(z.regex(new RegExp(`/${slug}$`), `must end in /${slug}`)),
    title: z.literal(title),
    status: z.literal(status),
  });
}
