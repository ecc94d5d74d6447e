// Middleware: every state-changing call a portal person makes (any method but GET), with its outcome,
// goes to the audit sink (lib/people: who, what, when, from where, the answer's status). A refusal is
// recorded too: a viewer's try at an owner's action is worth seeing. Integrators' clients are not
// people and are not in it. Writing the entry never changes the answer: a failure is logged.
import type { MiddlewareObj } from '@middy/core';
import { logger } from '../log.ts';
import { API_PREFIX } from '../routes.ts';
import type { Tenant } from '../tenant.ts';
import type { ApiContext, ApiEvent, ApiResult } from './types.ts';

export interface AuditEntry {
  at: string;
  actor: string;
  role: 'viewer' | 'developer' | 'owner';
  action: string;
  status: number;
  requestId: string;
  sourceIp: string;
}

export type AuditSink = (tenant: Tenant, entry: AuditEntry) => Promise<void>;

export function audit(sink: AuditSink | undefined): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  const record = async (request: {
    event: ApiEvent;
    context: ApiContext;
    response?: ApiResult | null | undefined;
  }): Promise<void> => {
    const { event, context } = request;
    const person = context.caller?.person;
    const { method, sourceIp } = event.requestContext.http;
    if (!sink || !person || !context.caller.associationId || method === 'GET') return;
    const path = event.rawPath.startsWith(API_PREFIX)
      ? event.rawPath.slice(API_PREFIX.length)
      : event.rawPath;
    try {
      await sink(
        { environment: context.caller.environment, associationId: context.caller.associationId },
        {
          at: new Date().toISOString(),
          actor: person.email,
          role: person.role,
          action: `${method} ${path}`,
          status: request.response?.statusCode ?? 500,
          requestId: context.requestId,
          sourceIp,
        },
      );
    } catch (error) {
      logger.error('The audit entry could not be written', { error });
    }
  };
  return { after: record, onError: record };
}
