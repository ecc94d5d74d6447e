// Portal people for the tests: a member added the way the admin CLI and the seed add the first owner,
// their sign-in code read back from the SES emulator (as a person reads their inbox), a session cookie
// and a person's bearer token, all through the real routes.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { NewTenant } from '../../lib/admin/tenants.ts';
import type { Role } from '../../lib/people/schema.ts';
import { addMember } from '../../lib/people/service.ts';
import { call } from './api.ts';

interface SentEmail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string };
}

/** A new address, never used before: each test's people are its own. */
export const newEmail = (who = 'person') => `${who}-${randomUUID().slice(0, 8)}@portal.test`;

export async function addPerson(tenant: Pick<NewTenant, 'environment' | 'associationId'>, role: Role) {
  const email = newEmail(role);
  const member = await addMember(tenant, { email, role }, null, new Date());
  return { email, memberId: member.memberId };
}

/** The codes the SES emulator received for `email`, oldest first. */
export async function codesSentTo(email: string): Promise<string[]> {
  const response = await fetch(`${process.env.TEST_SES_URL}/store`);
  const { emails } = (await response.json()) as { emails: SentEmail[] };
  return emails
    .filter((e) => e.destination.to.includes(email))
    .flatMap((e) => /sign-in code: (\d{8})/.exec(e.subject)?.[1] ?? []);
}

/** Asks for a code and reads it from the inbox. */
export async function signInCode(email: string): Promise<string> {
  const before = (await codesSentTo(email)).length;
  const asked = await call('/portal/sign-in', { method: 'POST', body: { email } });
  assert.equal(asked.status, 202, JSON.stringify(asked.body));
  const codes = await codesSentTo(email);
  assert.equal(codes.length, before + 1, `no code reached ${email}`);
  return codes.at(-1) as string;
}

/** The `Cookie` header value of a signed-in session of `email`. */
export async function signIn(email: string): Promise<string> {
  const code = await signInCode(email);
  const session = await call('/portal/sessions', { method: 'POST', body: { email, code } });
  assert.equal(session.status, 201, JSON.stringify(session.body));
  const cookie = session.headers.get('set-cookie') ?? '';
  return cookie.split(';')[0] as string;
}

/** A person's bearer token for the public API, from their session. */
export async function personTokenOf(cookie: string, choice: Record<string, string> = {}): Promise<string> {
  const minted = await call('/portal/token', { method: 'POST', body: choice, headers: { cookie } });
  assert.equal(minted.status, 200, JSON.stringify(minted.body));
  return minted.body.accessToken;
}

/** A signed-in person of `tenant` with `role`: their email, member id, cookie and token. */
export async function newPerson(tenant: Pick<NewTenant, 'environment' | 'associationId'>, role: Role) {
  const { email, memberId } = await addPerson(tenant, role);
  const cookie = await signIn(email);
  return { email, memberId, cookie, token: await personTokenOf(cookie) };
}

/** A call with a person's token alone: no x-service-auth, as the portal makes it. */
export const asPerson = (
  person: { token: string },
  path: string,
  options: { method?: string; body?: unknown } = {},
) => call(path, { ...options, token: person.token });
