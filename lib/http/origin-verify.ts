// Middleware: in AWS, the API is reached through CloudFront and its web ACL (infra/constructs/edge.ts),
// which add an X-Origin-Verify header holding a token only they and the functions know. A request
// without it came straight to the execute-api endpoint, around the WAF: it is refused before its route
// or credentials are looked at. Where no token is configured (the local stack, tests) nothing is checked.
// While the token is replaced, CloudFront's edges switch from the old to the new one over minutes: both
// are accepted (Secrets Manager's AWSCURRENT and AWSPREVIOUS), and a token the function does not hold
// yet makes it read them again (as often as the reader allows), so neither leg refuses a request.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import { forbidden } from './problem.ts';
import type { ApiContext, ApiEvent, ApiResult } from './types.ts';

/** The header CloudFront adds to every request it sends to the API (lowercase, as API Gateway delivers it). */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/**
 * The tokens a request may carry (the current one, and the previous one during a rotation), or
 * undefined when the check is off (no edge in front). `reread` asks for them afresh: the request
 * presented none of the held ones; the reader decides how often it actually reads again.
 */
export type OriginTokens = (options?: { reread?: boolean }) => Promise<readonly string[] | undefined>;

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compared as digests: equal lengths for timingSafeEqual, and no timing hint about the token. */
export function presentsOriginToken(presented: string | undefined, expected: readonly string[]): boolean {
  if (presented === undefined) return false;
  // Every token compared, none skipped: which one matched leaves no timing trace either.
  return expected.map((token) => timingSafeEqual(digest(presented), digest(token))).includes(true);
}

export function originVerify(tokens?: OriginTokens): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  if (!tokens) return {};
  return {
    before: async (request) => {
      const presented = request.event.headers?.[ORIGIN_VERIFY_HEADER];
      const held = await tokens();
      if (held === undefined || presentsOriginToken(presented, held)) return;
      const reread = await tokens({ reread: true });
      if (reread !== undefined && !presentsOriginToken(presented, reread)) {
        throw forbidden(
          'Call the API at its published address (the ApiUrl of the deployment), not its origin.',
        );
      }
    },
  };
}
