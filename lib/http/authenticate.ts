// Middleware: x-service-auth on every route, then the request counted against the application's limit
// (before any other work: a flood past it costs one conditional write, or nothing), then a bearer token
// on every route whose auth is 'token'; none on a provider-notification route (its operation checks the
// provider's signature first). The chain does not know how credentials are checked or requests counted:
// both are handed to it from above (lib/api.ts), so lib/http depends on no domain.
import type { MiddlewareObj } from '@middy/core';
import { isSandboxHelper, type Route } from '../routes.ts';
import { Problem } from './problem.ts';
import type { ApiContext, ApiEvent, ApiResult, Caller, Tenant } from './types.ts';

export interface Authenticator {
  /** The application behind an x-service-auth key, or a 401 problem. */
  application(apiKey: string | undefined): Promise<Caller>;
  /** The tenant a bearer token speaks for, or a 401/403 problem. */
  bearer(authorization: string | undefined, application: Caller): Promise<Tenant>;
}

/**
 * Counts the application's request to the route: the headers every answer to it carries from then on
 * (RateLimit, RateLimit-Policy), or a 429 problem with them.
 */
export type RequestLimiter = (
  application: Caller,
  route: Route,
  now: Date,
) => Promise<Record<string, string>>;

/** What an unknown route answers (functions/api/fallback.ts): a sandbox helper, to a production application. */
const noSuchRoute = (event: ApiEvent) =>
  new Problem(404, `No route ${event.requestContext.http.method} ${event.rawPath}.`);

export function authenticate(
  authenticator: Authenticator,
  limiter?: RequestLimiter,
): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  const resolveCaller: MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext>['before'] = async (request) => {
    const { headers } = request.event;
    const { route } = request.context;
    // A provider's notification carries no application key: its operation verifies the provider's
    // signature, and it has no tenant until its reference names one.
    if (route.auth === 'providerSignature') {
      request.context.caller = { applicationId: 'provider', environment: 'sandbox' };
      return;
    }
    const application = await authenticator.application(headers['x-service-auth']);
    request.context.caller = application;
    // Test helpers do not exist for production applications: nothing of the request is read.
    if (isSandboxHelper(route) && application.environment !== 'sandbox') throw noSuchRoute(request.event);
    if (limiter) request.context.responseHeaders = await limiter(application, route, new Date());
    if (route.auth === 'token') {
      const tenant = await authenticator.bearer(headers.authorization, application);
      request.context.caller = { ...application, associationId: tenant.associationId };
    }
  };
  return { before: resolveCaller };
}
