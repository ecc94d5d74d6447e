// The per-tenant daily cap on notices, in every environment: each message costs the platform money and
// spends the sending reputation all tenants share (SES suspends an account, not a tenant). Notices and
// sandbox verification codes count alike, one per message, in the tenant's own partition; past the cap
// nothing more goes out that UTC day, and each one held is counted (NoticeHeld, reason daily_cap).
import { config } from '../config.ts';
import { countNoticeHeld } from '../metrics.ts';
import type { Tenant } from '../tenant.ts';
import { countNoticeToday, type NoticeChannel } from './repo.ts';

export const noticeDailyLimit = (tenant: Tenant): number =>
  tenant.environment === 'sandbox'
    ? config().NOTICE_DAILY_LIMIT_SANDBOX
    : config().NOTICE_DAILY_LIMIT_PRODUCTION;

/** Counts one message: null when it may go, else the seconds until the tenant's day ends. */
export async function countTowardsDailyCap(
  tenant: Tenant,
  channel: NoticeChannel,
  now: Date,
): Promise<number | null> {
  const retryAfter = await countNoticeToday(tenant, noticeDailyLimit(tenant), now);
  if (retryAfter !== null) countNoticeHeld({ ...tenant, channel }, 'daily_cap');
  return retryAfter;
}

export const dailyCapReason = (tenant: Tenant) =>
  `The association's daily cap of ${noticeDailyLimit(tenant)} notices was reached: not sent.`;
