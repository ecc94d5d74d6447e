// Middleware: x-service-auth on every route, plus a bearer token on every route whose auth is 'token';
// none on a provider-notification route (its operation checks the provider's signature).
// The chain does not know how credentials are checked: the authenticator is handed to it from above
// (lib/api.ts), so lib/http depends on no domain.
import type { MiddlewareObj } from '@middy/core';
import type { ApiContext, ApiEvent, ApiResult, Caller, Tenant } from './types.ts';

export interface Authenticator {
  /** The application behind an x-service-auth key, or a 401 problem. */
  application(apiKey: string | undefined): Promise<Caller>;
  /** The tenant a bearer token speaks for, or a 401/403 problem. */
  bearer(authorization: string | undefined, application: Caller): Promise<Tenant>;
}

export function authenticate(
  authenticator: Authenticator,
): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  const resolveCaller: MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext>['before'] = async (request) => {
    const { headers } = request.event;
    // A provider's notification carries no application key: its operation verifies the provider's
    // signature, and it has no tenant until its reference names one.
    if (request.context.route.auth === 'providerSignature') {
      request.context.caller = { applicationId: 'provider', environment: 'sandbox' };
      return;
    }
    const application = await authenticator.application(headers['x-service-auth']);
    request.context.caller = application;
    if (request.context.route.auth === 'token') {
      const tenant = await authenticator.bearer(headers.authorization, application);
      request.context.caller = { ...application, associationId: tenant.associationId };
    }
  };
  return { before: resolveCaller };
}
