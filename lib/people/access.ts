// What every API function needs of the portal's people (lib/api.ts hands it to the chain): a person's
// token resolved to their tenant and role now, and the audit entry of their state-changing calls. Apart
// from service.ts, so that no function but the portal's and the team's bundles the email client.
import { verifyAccessToken } from '../auth/tokens.ts';
import { unauthorized } from '../http/problem.ts';
import type { Caller } from '../http/types.ts';
import type { Tenant } from '../tenant.ts';
import { type AuditRecord, findMember, putAuditEntry } from './repo.ts';

/** The `app` claim of a person's token: no application key goes with it. */
export const PORTAL_APP = 'portal';
/** Audit entries are kept 400 days (DynamoDB's TTL removes them after). */
const AUDIT_TTL_SECONDS = 400 * 86400;
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * A person's bearer token on a public API route (no x-service-auth: a browser holds no API key). The
 * membership is read again now, so a removed person or a changed role counts at once, not when the
 * token expires (the chain then holds the role to the route's: lib/http/authenticate.ts).
 */
export async function authenticatePerson(
  authorization: string | undefined,
  peopleOnly = false,
): Promise<Caller> {
  // An application's key or token is no credential here: a 401 (nothing acceptable was given) that says
  // what is, rather than a 403 that would first have to check the key it is not going to accept.
  const refused = () =>
    unauthorized(
      peopleOnly
        ? 'This route takes a person’s sign-in token (Authorization: Bearer, from POST /portal/token), not an application’s API key or token.'
        : 'The x-service-auth header is required.',
    );
  const token = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(authorization ?? '')?.[1];
  if (!token) throw refused();
  const claims = await verifyAccessToken(token);
  const person = claims.person;
  if (claims.app !== PORTAL_APP || !person || (person.env !== 'sandbox' && person.env !== 'production'))
    throw refused();
  const tenant: Tenant = { environment: person.env, associationId: person.assoc };
  const member = await findMember(claims.sub, tenant);
  if (!member) throw unauthorized('The bearer token is invalid or expired.');
  return {
    applicationId: PORTAL_APP,
    environment: tenant.environment,
    associationId: tenant.associationId,
    person: { email: member.email, role: member.role },
  };
}

/** One state-changing call by a person, or a sign-in. */
export async function recordAudit(
  tenant: Tenant,
  entry: Omit<AuditRecord, 'environment' | 'associationId' | 'expiresAt'>,
): Promise<void> {
  await putAuditEntry({ ...tenant, ...entry, expiresAt: epoch(new Date(entry.at)) + AUDIT_TTL_SECONDS });
}
