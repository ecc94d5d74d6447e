// The portal's one way to the API: the typed client (clients/typescript) as a signed-in person, its
// token minted from the session cookie and kept in memory only. Sign-in and sign-out use the same
// client's types through the portal routes.
import createClient from 'openapi-fetch';
import { ApiProblem } from '../../clients/typescript/src/errors.ts';
import type { components, paths } from '../../clients/typescript/src/generated/api.ts';
import { createPersonGateway, ok, type PersonToken } from '../../clients/typescript/src/person.ts';

export type Schemas = components['schemas'];
export { ApiProblem, ok, type PersonToken };

const baseUrl = `${location.origin}/v1`;

/** Unauthenticated calls (asking for a code, signing in, reading or ending the session). */
export const portalApi = createClient<paths>({ baseUrl, credentials: 'same-origin' });

/** The tenant the person chose (the test/live switch), kept for the tab; the token itself never is. */
const TENANT_KEY = 'portal.tenant';
const chosen = sessionStorage.getItem(TENANT_KEY);

export const gateway = createPersonGateway({ baseUrl, ...(chosen ? { tenant: JSON.parse(chosen) } : {}) });
export const api = () => gateway.api;

export function useTenant(tenant: { environment: 'sandbox' | 'production'; associationId: string }): void {
  sessionStorage.setItem(
    TENANT_KEY,
    JSON.stringify({ environment: tenant.environment, associationId: tenant.associationId }),
  );
}
