// The tenant's request log: one small item per state-changing or failed request, in a partition of the
// tenant's own, removed by TTL (`expiresAt`, epoch seconds).
import { entity } from '../db/entity.ts';
import { putIf } from '../db/items.ts';
import { requestLogKeys, tenantOf, tenantScope } from '../db/keys.ts';
import { newestFirstPage, type PageRequest } from '../db/paginate.ts';
import type { RequestRecord } from '../http/request-records.ts';
import type { PersonRole } from '../routes.ts';
import type { Environment, Tenant } from '../tenant.ts';

/** A request as the HTTP chain records it (at, method, path, status, request id, duration, source). */
export interface RequestLogRecord extends Omit<RequestRecord, 'tenant' | 'caller'> {
  environment: Environment;
  associationId: string;
  callerKind: 'application' | 'person';
  /** The application's id or the person's email. */
  callerId: string;
  role?: PersonRole;
  keyId?: string;
  expiresAt: number;
}

const requestLogEntity = entity<RequestLogRecord>({
  type: 'requestLogEntry',
  keyOf: (record) => requestLogKeys.entry(tenantOf(record), record.at, record.requestId),
});

export const putRequestLogEntry = (record: RequestLogRecord) => putIf(requestLogEntity, record);

/** The tenant's log, newest first. */
export const requestLogPageOf = (tenant: Tenant, page: Omit<PageRequest, 'binding'>) =>
  newestFirstPage<RequestLogRecord>(requestLogKeys.partition(tenant), {
    ...page,
    binding: { scope: tenantScope(tenant), query: 'request-log' },
  });
