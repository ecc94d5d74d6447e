// Middleware: x-service-auth on every route, plus a bearer token on every route whose auth is 'token'.
import type { MiddlewareObj } from '@middy/core';
import { authenticateApplication, authenticateBearer } from '../auth/service.ts';
import type { ApiContext, ApiEvent, ApiResult } from './types.ts';

export function authenticate(): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  const resolveCaller: MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext>['before'] = async (request) => {
    const { headers } = request.event;
    const application = await authenticateApplication(headers['x-service-auth']);
    request.context.caller = application;
    if (request.context.route.auth === 'token') {
      const tenant = await authenticateBearer(headers.authorization, application);
      request.context.caller = { ...application, associationId: tenant.associationId };
    }
  };
  return { before: resolveCaller };
}
