// The request log a tenant reads on the Developers page (GET /request-log): what its applications and
// people changed, and what failed, for 7 days. Kept cheap on purpose: a GET that succeeded leaves
// nothing, everything else one small item (one write unit) in the tenant's own partition, which
// DynamoDB's TTL removes. Written by the HTTP chain's one request writer (lib/http/request-records.ts).
// A 429 is not logged: a flood past the limit costs one conditional write, or nothing
// (lib/http/authenticate.ts), and an entry each would double that.
import type { RequestRecord } from '../http/request-records.ts';
import type { Tenant } from '../tenant.ts';
import { putRequestLogEntry, type RequestLogRecord, requestLogPageOf } from './repo.ts';

export const REQUEST_LOG_DAYS = 7;
const epoch = (iso: string) => Math.floor(Date.parse(iso) / 1000);

export async function logRequest(request: RequestRecord): Promise<void> {
  if (request.status === 429) return;
  const { tenant, caller, ...rest } = request;
  await putRequestLogEntry({
    ...tenant,
    ...rest,
    callerKind: caller.kind,
    callerId: caller.id,
    ...(caller.kind === 'person' ? { role: caller.role } : {}),
    ...(caller.kind === 'application' && caller.keyId ? { keyId: caller.keyId } : {}),
    expiresAt: epoch(request.at) + REQUEST_LOG_DAYS * 86400,
  });
}

const entryOut = (r: RequestLogRecord) => ({
  at: r.at,
  method: r.method,
  path: r.path,
  status: r.status,
  requestId: r.requestId,
  durationMs: r.durationMs,
  caller: { kind: r.callerKind, id: r.callerId, role: r.role ?? null, keyId: r.keyId ?? null },
  sourceIp: r.sourceIp,
});

/** A page of the tenant's log, newest first. An entry past its TTL that DynamoDB has not removed yet is left out. */
export async function requestLog(
  tenant: Tenant,
  page: { limit: number; cursor?: string | undefined },
  now: Date,
) {
  const found = await requestLogPageOf(tenant, page);
  const live = found.data.filter((r) => r.expiresAt > Math.floor(now.getTime() / 1000));
  return { data: live.map(entryOut), pagination: found.pagination };
}
