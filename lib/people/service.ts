// The portal's people: a one-time code by email (the notices' SES path), a session in an HttpOnly cookie,
// short-lived access tokens for the public API bound to one tenant and role, and the team of a tenant.
// Why email codes and not Cognito: docs/portal.md.
import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { findAssociation } from '../auth/repo.ts';
import { signAccessToken } from '../auth/tokens.ts';
import {
  badRequest,
  forbidden,
  notFound,
  Problem,
  serviceUnavailable,
  unauthorized,
} from '../http/problem.ts';
import { sendEmail } from '../notifications/email.ts';
import type { Environment, Tenant } from '../tenant.ts';
import { PORTAL_APP } from './access.ts';
import {
  auditPageOf,
  countCodeAttempt,
  endSession,
  findSession,
  findSignInCode,
  type MemberRecord,
  memberById,
  membershipsOf,
  membersOf,
  putMember,
  putSession,
  putSignInCode,
  removeMember,
  type SessionRecord,
  spendSignInCode,
} from './repo.ts';
import type { Membership } from './responses.ts';
import type { Role } from './schema.ts';

/** A code is good for 10 minutes and 5 tries; a new one is sent at most every 30 s. */
export const CODE_TTL_SECONDS = 600;
const CODE_MAX_ATTEMPTS = 5;
const CODE_RESEND_SECONDS = 30;
/** A session lasts 8 hours from sign-in, whatever is done in it (no sliding). */
export const SESSION_TTL_SECONDS = 8 * 3600;
/** A person's access token: 5 minutes, kept in the page's memory only, minted again from the session. */
export const PERSON_TOKEN_TTL_SECONDS = 300;
/** The session cookie's name. `__Host-` binds it to this origin, Path=/, Secure (RFC 6265bis). */
export const SESSION_COOKIE = '__Host-pgw_session';

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * POST /portal/sign-in: emails a code when the address belongs to someone on a team; answers the same
 * either way, so the route tells nobody who has an account.
 */
export async function requestSignInCode(email: string, now: Date): Promise<void> {
  const [memberships, previous] = await Promise.all([membershipsOf(email), findSignInCode(email)]);
  if (memberships.length === 0) return;
  if (previous && now.getTime() - Date.parse(previous.sentAt) < CODE_RESEND_SECONDS * 1000) return;
  const code = randomInt(0, 100_000_000).toString().padStart(8, '0');
  await putSignInCode({
    email,
    codeHash: sha256(`${email}:${code}`),
    sentAt: now.toISOString(),
    attempts: 0,
    expiresAt: epoch(now) + CODE_TTL_SECONDS,
  });
  const sent = await sendEmail(
    email,
    {
      subject: `Your sign-in code: ${code}`,
      text: `Your payments gateway portal sign-in code is ${code}.\n\nIt works once, for ${CODE_TTL_SECONDS / 60} minutes. If you did not ask for it, ignore this email.`,
    },
    { purpose: 'portal-sign-in' },
  );
  if (!sent) throw serviceUnavailable('Sign-in email is not configured for this stage.');
}

const wrongCode = () => unauthorized('The code is wrong or has expired: ask for a new one.');

/** POST /portal/sessions: the code for a session. The cookie's value is returned once and stored hashed. */
export async function createSession(
  email: string,
  code: string,
  now: Date,
): Promise<{ cookieValue: string; session: SessionRecord }> {
  const stored = await findSignInCode(email);
  if (!stored || stored.expiresAt <= epoch(now)) throw wrongCode();
  const presented = Buffer.from(sha256(`${email}:${code}`), 'hex');
  if (!timingSafeEqual(presented, Buffer.from(stored.codeHash, 'hex'))) {
    const counted = await countCodeAttempt(email);
    // The fifth wrong try spends the code: guessing 8 digits gets 5 tries per code sent.
    if (counted && counted.attempts >= CODE_MAX_ATTEMPTS) await spendSignInCode(email, counted.codeHash);
    throw wrongCode();
  }
  if (!(await spendSignInCode(email, stored.codeHash))) throw wrongCode();
  const cookieValue = randomBytes(32).toString('base64url');
  const session: SessionRecord = {
    sessionHash: sha256(cookieValue),
    email,
    createdAt: now.toISOString(),
    expiresAt: epoch(now) + SESSION_TTL_SECONDS,
  };
  await putSession(session);
  return { cookieValue, session };
}

/** The session cookie's value from a payload-2.0 event's cookies (or its Cookie header). */
export function sessionCookieOf(
  cookies: string[] | undefined,
  header: string | undefined,
): string | undefined {
  const all = cookies ?? (header ?? '').split(/;\s*/);
  for (const cookie of all) {
    const [name, ...value] = cookie.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=');
  }
  return undefined;
}

/** The live session a cookie names, or 401. */
export async function sessionOf(cookieValue: string | undefined, now: Date): Promise<SessionRecord> {
  const session = cookieValue ? await findSession(sha256(cookieValue)) : undefined;
  if (!session || session.expiresAt <= epoch(now))
    throw unauthorized('Not signed in, or the session has ended.');
  return session;
}

export async function endSessionOf(cookieValue: string | undefined): Promise<void> {
  if (cookieValue) await endSession(sha256(cookieValue));
}

export async function membershipsOfPerson(email: string): Promise<Membership[]> {
  const members = await membershipsOf(email);
  const names = await Promise.all(members.map((m) => findAssociation(m)));
  return members.map((m, i) => ({
    environment: m.environment,
    associationId: m.associationId,
    associationName: names[i]?.name ?? m.associationId,
    role: m.role,
  }));
}

/**
 * POST /portal/token: an access token for the public API, for one of the person's tenants (the only
 * one, or the one named). 403 when they are not on that tenant's team.
 */
export async function personToken(
  session: SessionRecord,
  choice: { environment?: Environment | undefined; associationId?: string | undefined },
  now: Date,
) {
  const members = await membershipsOf(session.email);
  const member = members.find(
    (m) =>
      (choice.environment === undefined || m.environment === choice.environment) &&
      (choice.associationId === undefined || m.associationId === choice.associationId),
  );
  if (!member)
    throw forbidden('You are not on this tenant’s team.', [
      { field: 'associationId', message: 'is not one of your teams' },
    ]);
  const accessToken = await signAccessToken(
    {
      sub: session.email,
      app: PORTAL_APP,
      person: { env: member.environment, assoc: member.associationId, role: member.role },
    },
    now,
    PERSON_TOKEN_TTL_SECONDS,
  );
  return {
    accessToken,
    tokenType: 'Bearer' as const,
    expiresIn: PERSON_TOKEN_TTL_SECONDS,
    environment: member.environment,
    associationId: member.associationId,
    role: member.role,
    email: session.email,
  };
}

const memberOut = (m: MemberRecord) => ({
  memberId: m.memberId,
  email: m.email,
  role: m.role,
  invitedBy: m.invitedBy,
  createdAt: m.createdAt,
});

export async function listMembers(tenant: Tenant) {
  const members = await membersOf(tenant);
  return { data: members.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(memberOut) };
}

/**
 * Adds a person to the team (or the first owner: `invitedBy` null, from the admin CLI or the seed). They
 * sign in with their email; an invitation email says so when email is configured.
 */
export async function addMember(
  tenant: Tenant,
  invite: { email: string; role: Role },
  invitedBy: string | null,
  now: Date,
) {
  const record: MemberRecord = {
    memberId: randomUUID(),
    email: invite.email,
    ...tenant,
    role: invite.role,
    invitedBy,
    createdAt: now.toISOString(),
  };
  if (!(await putMember(record)))
    throw new Problem(409, 'This person is already on the team.', {
      errors: [{ field: 'email', message: 'is already a member' }],
    });
  if (invitedBy)
    await sendEmail(
      invite.email,
      {
        subject: 'You have been added to a payments gateway team',
        text: `${invitedBy} added you as ${invite.role}. Sign in to the portal with this email address.`,
      },
      { purpose: 'portal-invitation' },
    );
  return memberOut(record);
}

export async function removeMemberById(tenant: Tenant, memberId: string, by: string) {
  const member = await memberById(tenant, memberId);
  if (!member) throw notFound('No such member.', [{ field: 'memberId', message: 'is not on this team' }]);
  if (member.email === by)
    throw badRequest('You cannot remove yourself; another owner can.', [
      { field: 'memberId', message: 'is you' },
    ]);
  await removeMember(member.email, tenant);
  return memberOut(member);
}

export async function auditLog(tenant: Tenant, page: { limit: number; cursor?: string | undefined }) {
  const found = await auditPageOf(tenant, page);
  return {
    data: found.data.map(({ at, actor, role, action, status, requestId, sourceIp }) => ({
      at,
      actor,
      role,
      action,
      status,
      requestId,
      sourceIp,
    })),
    pagination: found.pagination,
  };
}
