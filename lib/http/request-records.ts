// Middleware: the one writer of what a tenant's requests leave behind. Every request that changed
// something (any method but GET) or failed (4xx or 5xx), once its caller's tenant is known, goes to the
// sink with its outcome and duration: the sink (lib/api.ts) puts it in the tenant's request log, and a
// portal person's state-changing call in the team's audit log too (who, what, when, from where). A
// refusal is recorded as well: a viewer's try at an owner's action is worth seeing. A GET that succeeded
// is not: reads are most of the traffic and change nothing. Writing never changes the answer: a failure
// is logged.
import type { MiddlewareObj } from '@middy/core';
import { logger } from '../log.ts';
import { API_PREFIX, type PersonRole } from '../routes.ts';
import type { Tenant } from '../tenant.ts';
import type { ApiContext, ApiEvent, ApiResult } from './types.ts';

/** Who made a request: an application (with the key it presented) or a portal person (with their role). */
export type RequestCaller =
  | { kind: 'application'; id: string; keyId?: string }
  | { kind: 'person'; id: string; role: PersonRole };

export interface RequestRecord {
  tenant: Tenant;
  caller: RequestCaller;
  at: string;
  method: string;
  /** The path as called, without the version prefix (`/wallets/…`). */
  path: string;
  status: number;
  requestId: string;
  durationMs: number;
  sourceIp: string;
}

export type RequestSink = (record: RequestRecord) => Promise<void>;

/** What the tenant's records keep: what changed something, and what failed. */
export const isRecorded = (method: string, status: number): boolean => method !== 'GET' || status >= 400;

export function requestRecords(
  sink: RequestSink | undefined,
): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  const started = new WeakMap<ApiEvent, number>();
  const record = async (request: {
    event: ApiEvent;
    context: ApiContext;
    response?: ApiResult | null | undefined;
  }): Promise<void> => {
    const { event, context } = request;
    const caller = context.caller;
    const { method, sourceIp } = event.requestContext.http;
    const status = request.response?.statusCode ?? 500;
    if (!sink || !caller?.associationId || !isRecorded(method, status)) return;
    const path = event.rawPath.startsWith(API_PREFIX)
      ? event.rawPath.slice(API_PREFIX.length)
      : event.rawPath;
    const at = new Date();
    try {
      await sink({
        tenant: { environment: caller.environment, associationId: caller.associationId },
        caller: caller.person
          ? { kind: 'person', id: caller.person.email, role: caller.person.role }
          : {
              kind: 'application',
              id: caller.applicationId,
              ...(caller.keyId ? { keyId: caller.keyId } : {}),
            },
        at: at.toISOString(),
        method,
        path,
        status,
        requestId: context.requestId,
        durationMs: at.getTime() - (started.get(event) ?? at.getTime()),
        sourceIp,
      });
    } catch (error) {
      logger.error("The request's records could not be written", { error });
    }
  };
  return {
    before: (request) => {
      started.set(request.event, Date.now());
    },
    after: record,
    onError: record,
  };
}
