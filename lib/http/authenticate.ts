// Middleware: x-service-auth on every route, plus a bearer token on every route whose auth is 'token';
// none on a provider-notification route (its operation checks the provider's signature). A portal
// person (lib/people) calls the 'token' and 'person' routes with their own bearer token and no key, and
// their role is held to what the route needs here, on every call. The portal's 'none' and 'session'
// routes authenticate in their operations (a code, the session cookie).
// The chain does not know how credentials are checked: the authenticator is handed to it from above
// (lib/api.ts), so lib/http depends on no domain.
import type { MiddlewareObj } from '@middy/core';
import { roleNeeded, roleReaches } from '../routes.ts';
import { forbidden } from './problem.ts';
import type { ApiContext, ApiEvent, ApiResult, Caller, Tenant } from './types.ts';

export interface Authenticator {
  /** The application behind an x-service-auth key, or a 401 problem. */
  application(apiKey: string | undefined): Promise<Caller>;
  /** The tenant a bearer token speaks for, or a 401/403 problem. */
  bearer(authorization: string | undefined, application: Caller): Promise<Tenant>;
  /** A portal person's bearer token: their tenant and their role now, or a 401 problem. */
  person(authorization: string | undefined): Promise<Caller>;
}

/** A caller with no credentials yet: the operation authenticates (the portal's sign-in and session). */
const UNAUTHENTICATED: Caller = { applicationId: 'portal', environment: 'sandbox' };

export function authenticate(
  authenticator: Authenticator,
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
    if (route.auth === 'none' || route.auth === 'session') {
      request.context.caller = UNAUTHENTICATED;
      return;
    }
    const personal =
      route.auth === 'person' || (route.auth === 'token' && headers['x-service-auth'] === undefined);
    if (personal) {
      const caller = await authenticator.person(headers.authorization);
      // Set before the role is checked: the audit log records the refusal with who was refused.
      request.context.caller = caller;
      const needed = roleNeeded(route);
      if (caller.person && !roleReaches(caller.person.role, needed))
        throw forbidden(`Your role (${caller.person.role}) cannot do this: it needs ${needed}.`);
      return;
    }
    const application = await authenticator.application(headers['x-service-auth']);
    request.context.caller = application;
    if (route.auth === 'token') {
      const tenant = await authenticator.bearer(headers.authorization, application);
      request.context.caller = { ...application, associationId: tenant.associationId };
    }
  };
  return { before: resolveCaller };
}
