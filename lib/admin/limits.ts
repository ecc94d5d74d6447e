// Each application's request limits (lib/limits), as the admin CLI sets and shows them: a group's own
// quota and window, or the default. A change reaches every function within a minute (their cache).
import { findApplication } from '../auth/repo.ts';
import {
  DEFAULT_LIMITS,
  LIMIT_GROUPS,
  type LimitGroup,
  type LimitPolicy,
  MAX_WINDOW_SECONDS,
  policyInWords,
} from '../limits/policies.ts';
import { findApplicationLimits, putApplicationLimits } from '../limits/repo.ts';
import { AdminRefusal } from './refusal.ts';

export interface ShownLimit extends LimitPolicy {
  group: LimitGroup;
  /** `set` by the admin CLI for this application, or the `default`. */
  source: 'set' | 'default';
  inWords: string;
}

async function limitsOf(applicationId: string) {
  if (!(await findApplication(applicationId))) throw new AdminRefusal(`No application ${applicationId}`);
  return (await findApplicationLimits(applicationId))?.limits ?? {};
}

/** Every group's limit of the application, its own or the default (unscaled: deployed stages use 1). */
export async function showLimits(applicationId: string): Promise<ShownLimit[]> {
  const own = await limitsOf(applicationId);
  return LIMIT_GROUPS.map((group) => {
    const policy = own[group] ?? DEFAULT_LIMITS[group];
    return { group, ...policy, source: own[group] ? 'set' : 'default', inWords: policyInWords(policy) };
  });
}

function checkedGroup(group: string): LimitGroup {
  if (!(LIMIT_GROUPS as readonly string[]).includes(group))
    throw new AdminRefusal(`--group must be one of ${LIMIT_GROUPS.join(', ')}`);
  return group as LimitGroup;
}

function checkedPolicy(quota: string, windowSeconds: string): LimitPolicy {
  const policy = { quota: Number(quota), windowSeconds: Number(windowSeconds) };
  if (!Number.isSafeInteger(policy.quota) || policy.quota < 1)
    throw new AdminRefusal('--quota must be a whole number of requests, 1 or more');
  if (
    !Number.isSafeInteger(policy.windowSeconds) ||
    policy.windowSeconds < 1 ||
    policy.windowSeconds > MAX_WINDOW_SECONDS
  )
    throw new AdminRefusal(`--window must be a whole number of seconds from 1 to ${MAX_WINDOW_SECONDS}`);
  return policy;
}

/** Sets the application's own limit of a group (quota requests per window of windowSeconds). */
export async function setLimit(
  applicationId: string,
  group: string,
  quota: string,
  windowSeconds: string,
  now = new Date(),
): Promise<ShownLimit[]> {
  const policy = checkedPolicy(quota, windowSeconds);
  const limits = { ...(await limitsOf(applicationId)), [checkedGroup(group)]: policy };
  await putApplicationLimits({ applicationId, limits, updatedAt: now.toISOString() });
  return showLimits(applicationId);
}

/** Gives a group back its default. */
export async function clearLimit(
  applicationId: string,
  group: string,
  now = new Date(),
): Promise<ShownLimit[]> {
  const { [checkedGroup(group)]: _, ...limits } = await limitsOf(applicationId);
  await putApplicationLimits({ applicationId, limits, updatedAt: now.toISOString() });
  return showLimits(applicationId);
}
