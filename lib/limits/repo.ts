// An application's own request limits (one item beside its application record), and the windows
// requests are counted in (lib/db/window-count.ts).
import { entity } from '../db/entity.ts';
import { getRecord, putIf } from '../db/items.ts';
import { keys } from '../db/keys.ts';
import { countInWindowOf, type WindowCount } from '../db/window-count.ts';
import type { LimitGroup, LimitPolicy } from './policies.ts';

export interface ApplicationLimitsRecord {
  applicationId: string;
  /** The groups whose limit the admin CLI set; the others take the default. */
  limits: Partial<Record<LimitGroup, LimitPolicy>>;
  updatedAt: string;
}

const applicationLimitsEntity = entity<ApplicationLimitsRecord>({
  type: 'applicationLimits',
  keyOf: (record) => keys.applicationLimits(record.applicationId),
});

export const findApplicationLimits = (applicationId: string) =>
  getRecord<ApplicationLimitsRecord>(keys.applicationLimits(applicationId), { consistent: true });

/** Written whole by the admin CLI, which read it first (one operator at a time). */
export const putApplicationLimits = (record: ApplicationLimitsRecord) =>
  putIf(applicationLimitsEntity, record);

/** Counts one request of `subject` in its `group` window. */
export const countRequest = (
  group: string,
  subject: string,
  policy: LimitPolicy,
  now: Date,
): Promise<WindowCount> =>
  countInWindowOf(
    (start) => keys.requestRateWindow(group, subject, start),
    policy.quota,
    policy.windowSeconds,
    now,
  );
