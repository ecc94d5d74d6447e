// Middleware: in AWS, the API is reached through CloudFront and its web ACL (infra/constructs/edge.ts),
// which add an X-Origin-Verify header holding a token only they and the functions know. A request
// without it came straight to the execute-api endpoint, around the WAF: it is refused before its route
// or credentials are looked at. Where no token is configured (the local stack, tests) nothing is checked.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import { forbidden } from './problem.ts';
import type { ApiContext, ApiEvent, ApiResult } from './types.ts';

/** The header CloudFront adds to every request it sends to the API (lowercase, as API Gateway delivers it). */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/** The token requests must carry, or undefined when the check is off (no edge in front). */
export type OriginToken = () => Promise<string | undefined>;

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compared as digests: equal lengths for timingSafeEqual, and no timing hint about the token. */
export function presentsOriginToken(presented: string | undefined, expected: string): boolean {
  return presented !== undefined && timingSafeEqual(digest(presented), digest(expected));
}

export function originVerify(token?: OriginToken): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  if (!token) return {};
  return {
    before: async (request) => {
      const expected = await token();
      if (expected === undefined) return;
      if (!presentsOriginToken(request.event.headers?.[ORIGIN_VERIFY_HEADER], expected)) {
        throw forbidden(
          'Call the API at its published address (the ApiUrl of the deployment), not its origin.',
        );
      }
    },
  };
}
