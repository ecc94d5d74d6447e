// The Idempotency-Key request header (Stripe-style): the caller's name for one request, so that sending
// it again, after a timeout or a 202, gets the first request's result instead of doing it twice. Only
// operations that declare `idempotencyKey: true` read it (and the OpenAPI document lists it on those);
// the chain checks it once for all of them.
import * as z from '../zod.ts';
import { badRequest } from './problem.ts';
import type { ApiEvent } from './types.ts';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** 1–255 printable ASCII characters (space to `~`): a UUID fits, and nothing can smuggle a control byte. */
export const idempotencyKeyHeader = z
  .string()
  .check(z.regex(/^[\x20-\x7E]{1,255}$/, 'must be 1–255 printable ASCII characters'));

/** The header's value when the caller sent one; a malformed one is a 400 naming the header. */
export function idempotencyKeyOf(event: ApiEvent): string | undefined {
  // API Gateway (payload 2.0) lower-cases header names.
  const value = event.headers?.[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  if (value === undefined) return undefined;
  const parsed = idempotencyKeyHeader.safeParse(value);
  if (parsed.success) return parsed.data;
  throw badRequest(`The ${IDEMPOTENCY_KEY_HEADER} header is invalid.`, [
    { field: IDEMPOTENCY_KEY_HEADER, message: parsed.error.issues[0]?.message ?? 'is invalid' },
  ]);
}
