// Each application's request limits: one window per route group, so one tenant's flood spends its own
// capacity and nobody else's. The groups, their defaults and the group of each route of lib/routes.ts.
// Why a fixed window in the table, counted right after the application key is proven: docs/decisions/tenant-rate-limits.md.
import { config } from '../config.ts';
import { isSandboxHelper, type Route } from '../routes.ts';

/**
 * `token`: POST /auth/token, keyed on the application whose key was proven; `reads`: every GET;
 * `writes`: payments and every other change; `sandbox`: the test helpers; `registrations`: customer
 * registrations, each a call to a shared provider.
 */
export const LIMIT_GROUPS = ['token', 'reads', 'writes', 'sandbox', 'registrations'] as const;
export type LimitGroup = (typeof LIMIT_GROUPS)[number];

/**
 * At most `quota` requests in each fixed window of `windowSeconds` (aligned to the epoch): a steady rate
 * of quota / windowSeconds a second, in bursts of up to `quota`. The IETF draft's `q` and `w`.
 */
export interface LimitPolicy {
  quota: number;
  windowSeconds: number;
}

/**
 * What an application gets unless the admin CLI set its own: above what a small business sends, far
 * below a flood. The token route's allows the two windows inside it together (lib/auth/rate-limit.ts:
 * 20 tokens a client, 100 failures an application, a minute).
 */
export const DEFAULT_LIMITS: Readonly<Record<LimitGroup, LimitPolicy>> = {
  token: { quota: 150, windowSeconds: 60 },
  reads: { quota: 100, windowSeconds: 2 },
  writes: { quota: 40, windowSeconds: 2 },
  sandbox: { quota: 20, windowSeconds: 2 },
  registrations: { quota: 60, windowSeconds: 60 },
};

/**
 * Notifications one connector's provider may send a minute, counted once their signature verified
 * (lib/providers/authentication.ts): a provider reporting a batch of payouts stays far below it.
 */
export const PROVIDER_NOTIFICATION_LIMIT: LimitPolicy = { quota: 600, windowSeconds: 60 };

/** The longest window an application's limit may have: a day. */
export const MAX_WINDOW_SECONDS = 86_400;

/** A default as this stage applies it: RATE_LIMIT_SCALE multiplies every quota (the bench lifts them). */
export const scaled = (policy: LimitPolicy): LimitPolicy => ({
  ...policy,
  quota: Math.ceil(policy.quota * config().RATE_LIMIT_SCALE),
});

export const defaultLimit = (group: LimitGroup): LimitPolicy => scaled(DEFAULT_LIMITS[group]);

/** The group a route's requests are counted in; none for the provider route (not an application's). */
export function limitGroupOf(route: Pick<Route, 'method' | 'path' | 'auth'>): LimitGroup | undefined {
  if (route.auth === 'providerSignature') return undefined;
  if (route.auth === 'apiKey') return 'token';
  if (isSandboxHelper(route)) return 'sandbox';
  if (/\/register\/[^/]+$/.test(route.path)) return 'registrations';
  return route.method === 'GET' ? 'reads' : 'writes';
}

/** `100 requests per 2 s (50/s steady, bursts of 100)`: a policy in words, for the docs and the CLI. */
export function policyInWords({ quota, windowSeconds }: LimitPolicy): string {
  const rate = quota / windowSeconds;
  const steady = rate >= 1 ? `${Number(rate.toFixed(2))}/s` : `${Number((rate * 60).toFixed(2))}/min`;
  return `${quota} requests per ${windowSeconds} s (${steady} steady, bursts of ${quota})`;
}
