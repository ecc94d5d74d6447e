// A request counted against its caller's limit before any other work (lib/http/authenticate.ts calls
// this as soon as the application key is proven): 429 past it, with Retry-After and the IETF draft's
// RateLimit and RateLimit-Policy headers (draft-ietf-httpapi-ratelimit-headers), which every answer
// after the count carries too. docs/decisions/tenant-rate-limits.md says why a window in the table.
import { windowStartOf } from '../db/window-count.ts';
import { tooManyRequests } from '../http/problem.ts';
import { countRequestLimitReached } from '../metrics.ts';
import type { Route } from '../routes.ts';
import { defaultLimit, type LimitGroup, type LimitPolicy, limitGroupOf } from './policies.ts';
import { countRequest, findApplicationLimits } from './repo.ts';

/** How long an execution environment keeps an application's own limits: a change applies within this. */
export const LIMITS_MAX_AGE_MS = 60_000;

const limitsRead = new Map<string, { limits: Partial<Record<LimitGroup, LimitPolicy>>; readAt: number }>();

async function policyOf(applicationId: string, group: LimitGroup, now: Date): Promise<LimitPolicy> {
  let held = limitsRead.get(applicationId);
  if (!held || now.getTime() - held.readAt >= LIMITS_MAX_AGE_MS) {
    const record = await findApplicationLimits(applicationId);
    held = { limits: record?.limits ?? {}, readAt: now.getTime() };
    limitsRead.set(applicationId, held);
  }
  return held.limits[group] ?? defaultLimit(group);
}

/**
 * Windows this execution environment found full, with the epoch second each ends: a flood's requests
 * are refused from memory until then, so past its limit a tenant costs the table nothing more.
 */
const fullUntil = new Map<string, number>();

function forgetEnded(nowSeconds: number): void {
  if (fullUntil.size < 10_000) return;
  for (const [window, end] of fullUntil) if (end <= nowSeconds) fullUntil.delete(window);
}

/** Where a request stands in its window: what the RateLimit headers say. */
export interface Admission {
  group: string;
  policy: LimitPolicy;
  remaining: number;
  resetSeconds: number;
}

/** RateLimit-Policy (`"reads";q=100;w=2`) and RateLimit (`"reads";r=37;t=1`) of an admission. */
export function rateLimitHeaders({
  group,
  policy,
  remaining,
  resetSeconds,
}: Admission): Record<string, string> {
  return {
    'RateLimit-Policy': `"${group}";q=${policy.quota};w=${policy.windowSeconds}`,
    RateLimit: `"${group}";r=${remaining};t=${resetSeconds}`,
  };
}

/** Counts one request of `subject` in its `group` window: its admission, or a 429 past the quota. */
export async function admit(
  group: string,
  subject: string,
  policy: LimitPolicy,
  now: Date,
): Promise<Admission> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const window = `${group}#${subject}#${windowStartOf(now, policy.windowSeconds)}`;
  const knownFullUntil = fullUntil.get(window);
  const count =
    knownFullUntil !== undefined && knownFullUntil > nowSeconds
      ? { counted: false, used: policy.quota, resetSeconds: knownFullUntil - nowSeconds }
      : await countRequest(group, subject, policy, now);
  const admission = {
    group,
    policy,
    remaining: Math.max(0, policy.quota - count.used),
    resetSeconds: count.resetSeconds,
  };
  if (count.counted) return admission;
  forgetEnded(nowSeconds);
  if (knownFullUntil === undefined || knownFullUntil <= nowSeconds)
    countRequestLimitReached(group, subject, policy.quota);
  fullUntil.set(window, nowSeconds + count.resetSeconds);
  throw tooManyRequests(
    count.resetSeconds,
    `The ${group} limit of ${policy.quota} requests per ${policy.windowSeconds} s is used; retry after ${count.resetSeconds} s.`,
    rateLimitHeaders(admission),
  );
}

/**
 * Counts an application's request to `route` in the route's group: the headers its answer carries,
 * none for a route that is not an application's (the provider route counts after its signature).
 */
export async function admitRequest(
  applicationId: string,
  route: Pick<Route, 'method' | 'path' | 'auth'>,
  now: Date,
): Promise<Record<string, string>> {
  const group = limitGroupOf(route);
  if (!group) return {};
  const policy = await policyOf(applicationId, group, now);
  return rateLimitHeaders(await admit(group, `app#${applicationId}`, policy, now));
}
