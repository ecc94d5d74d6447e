// Middleware: x-service-auth on every route, then the request counted against the application's limit
// (before any other work: a flood past it costs one conditional write, or nothing), then a bearer token
// on every route whose auth is 'token'. A provider's notification carries its connector's signature
// instead: checked on the raw path and the raw bytes, before the chain parses or validates any of them
// (path, query, body), so anything unsigned gets one fixed 401. A portal person (lib/people) calls the 'token' and 'person' routes with
// their own bearer token and no key: their tenant's portal has a limit of its own, and their role is held
// to what the route needs here, on every call. The portal's 'none' and 'session' routes authenticate in
// their operations (a code, the session cookie).
// The chain does not know how credentials are checked or requests counted: both are handed to it from
// above (lib/api.ts), so lib/http depends on no domain.
import type { MiddlewareObj } from '@middy/core';
import { isSandboxHelper, type Route, roleNeeded, roleReaches } from '../routes.ts';
import type { Tenant } from '../tenant.ts';
import { rawBodyOf } from './json-body.ts';
import { forbidden, Problem } from './problem.ts';
import type { ApiContext, ApiEvent, ApiResult, Caller } from './types.ts';

export interface Authenticator {
  /** The application behind an x-service-auth key, or a 401 problem. */
  application(apiKey: string | undefined): Promise<Caller>;
  /** The tenant a bearer token speaks for, or a 401/403 problem. */
  bearer(authorization: string | undefined, application: Caller): Promise<Tenant>;
  /**
   * A portal person's bearer token: their tenant and their role now, or a 401 problem; `peopleOnly`, the
   * route takes no application's credentials at all, and the problem says so.
   */
  person(authorization: string | undefined, peopleOnly: boolean): Promise<Caller>;
  /**
   * A provider's signed request: the connector whose secret signed it, or the one fixed 401 problem.
   * Only the chain of the function serving the provider route has it (lib/provider-api.ts).
   */
  provider?(request: ProviderRequest): Promise<Caller>;
}

/** A provider's request as it arrived: nothing of it parsed or validated. */
export interface ProviderRequest {
  rawPath: string;
  /** The body's text, as the signature covers it. */
  rawBody: string;
  headers: Record<string, string | undefined>;
  now: Date;
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

/** A caller with no credentials yet: the operation authenticates (the portal's sign-in and session). */
const UNAUTHENTICATED: Caller = { applicationId: 'portal', environment: 'sandbox' };

export function authenticate(
  authenticator: Authenticator,
  limiter?: RequestLimiter,
): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  const resolveCaller: MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext>['before'] = async (request) => {
    const { headers } = request.event;
    const { route } = request.context;
    // A provider's notification carries no application key, and it has no tenant until its reference
    // names one.
    if (route.auth === 'providerSignature') {
      const rawBody = rawBodyOf(request.event).toString('utf8');
      request.context.rawBody = rawBody;
      if (!authenticator.provider) throw new Error(`${route.fn} is not given the provider authenticator`);
      request.context.caller = await authenticator.provider({
        rawPath: request.event.rawPath,
        rawBody,
        headers,
        now: new Date(),
      });
      return;
    }
    if (route.auth === 'none' || route.auth === 'session') {
      request.context.caller = UNAUTHENTICATED;
      return;
    }
    const personal =
      route.auth === 'person' || (route.auth === 'token' && headers['x-service-auth'] === undefined);
    if (personal) {
      const caller = await authenticator.person(headers.authorization, route.auth === 'person');
      // Set before the role is checked: the audit log records the refusal with who was refused.
      request.context.caller = caller;
      if (isSandboxHelper(route) && caller.environment !== 'sandbox') throw noSuchRoute(request.event);
      // Every tenant's portal is counted apart: its people share their tenant's window, no one else's.
      const portal = `portal:${caller.environment}:${caller.associationId ?? 'none'}`;
      if (limiter)
        request.context.responseHeaders = await limiter(
          { ...caller, applicationId: portal },
          route,
          new Date(),
        );
      const needed = roleNeeded(route);
      if (caller.person && !roleReaches(caller.person.role, needed))
        throw forbidden(`Your role (${caller.person.role}) cannot do this: it needs ${needed}.`);
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
