// The Portal and Team tags' operations: the business portal's sign-in (lib/people) and a tenant's team.
import {
  auditEntryExample,
  auditPage,
  memberExample,
  memberPage,
  memberResource,
  portalSessionExample,
  portalSessionResource,
  portalTokenExample,
  portalTokenResource,
  signedOut,
  signInAccepted,
} from '../lib/people/responses.ts';
import { PERSON_TOKEN_TTL_SECONDS, SESSION_TTL_SECONDS } from '../lib/people/service.ts';
import { lastPageExample } from './page-example.ts';

const CROSS_SITE = 'A request another site’s page made (`Sec-Fetch-Site` other than `same-origin`).';
const NO_SESSION = 'No session cookie, or its session has ended or was signed out.';

export const portalDocs = {
  requestSignInCode: {
    tag: 'Portal',
    summary: 'Email a sign-in code',
    description:
      'Sends an 8-digit one-time code to the address when it belongs to someone on a team (through the same SES identity as the beneficiary notices), good for 10 minutes and 5 tries; a new one at most every 30 s. The answer is the same whether or not the address has an account, so the route tells nobody who does.',
    success: {
      status: 202,
      description: 'Asked: the code is on its way if the address is on a team.',
      schema: signInAccepted,
      example: { status: 'sent', detail: 'If this address is on a team, a code is on its way.' },
    },
    problems: { 403: CROSS_SITE, 503: 'Email is not configured for this stage.' },
  },
  createPortalSession: {
    tag: 'Portal',
    summary: 'Sign in with the code',
    description: `The code for a session: \`Set-Cookie: __Host-pgw_session=…; Path=/; HttpOnly; Secure; SameSite=Strict\`, good for ${SESSION_TTL_SECONDS / 3600} hours. The cookie is worth nothing but POST /portal/token (and reading or ending the session): no script can read it, and no other site's page sends it. A wrong, spent or expired code is a 401 (the fifth wrong try spends it). The sign-in is in each of the person's tenants' audit logs.`,
    success: {
      status: 201,
      description: 'Signed in: the person and the teams they are on.',
      schema: portalSessionResource,
      example: portalSessionExample,
    },
    problems: { 401: 'The code is wrong, spent or expired.', 403: CROSS_SITE },
  },
  getPortalSession: {
    tag: 'Portal',
    summary: 'Read the session',
    success: {
      status: 200,
      description: 'Who is signed in, until when, on which teams.',
      schema: portalSessionResource,
      example: portalSessionExample,
    },
    problems: { 401: NO_SESSION, 403: CROSS_SITE },
  },
  endPortalSession: {
    tag: 'Portal',
    summary: 'Sign out',
    description:
      'Ends the session and clears its cookie. Tokens minted from it stop at their own expiry (5 minutes at most).',
    success: {
      status: 200,
      description: 'Signed out.',
      schema: signedOut,
      example: { status: 'signed-out' },
    },
    problems: { 403: CROSS_SITE },
  },
  issuePortalToken: {
    tag: 'Portal',
    summary: 'Mint an access token for the public API',
    description: `A bearer token for one of the person's tenants (the one \`environment\` and \`associationId\` name, else their first), valid ${PERSON_TOKEN_TTL_SECONDS} s: the portal keeps it in memory and mints another from the session. Sent alone (no \`x-service-auth\`: no API key or client secret ever reaches a browser), it is taken by every route that takes a client's token, and by the Team routes. The server reads the person's role again on every call: \`viewer\` may read (GET), \`developer\` may also change (anything else), \`owner\` may also manage the team; a role short of the route's is a 403, and a person removed from the team is a 401 at once.`,
    success: {
      status: 200,
      description: 'The token.',
      schema: portalTokenResource,
      example: portalTokenExample,
    },
    problems: {
      401: NO_SESSION,
      403: `Not on the named tenant's team (\`associationId\`), or ${CROSS_SITE.toLowerCase()}`,
    },
  },
  listTeamMembers: {
    tag: 'Team',
    summary: 'List the team',
    success: {
      status: 200,
      description: 'Everyone on the team, oldest first.',
      schema: memberPage,
      example: { data: [memberExample] },
    },
  },
  addTeamMember: {
    tag: 'Team',
    summary: 'Invite a person',
    description:
      'Adds the email to the team with a role (`owner`, `developer`, `viewer`) and emails them; they sign in with that address. Someone already on the team is a 409 naming `email` (their role is left as it is).',
    success: { status: 201, description: 'The new member.', schema: memberResource, example: memberExample },
    problems: { 409: 'Already on the team.' },
  },
  removeTeamMember: {
    tag: 'Team',
    summary: 'Remove a person',
    description:
      'Their next call is a 401, whatever token they hold. An owner cannot remove themselves (400): another owner can.',
    success: {
      status: 200,
      description: 'The member removed.',
      schema: memberResource,
      example: memberExample,
    },
    problems: { 404: 'No such member on this team.' },
  },
  listAuditLog: {
    tag: 'Team',
    summary: 'Read the audit log',
    description:
      'Every state-changing call a person made (any method but GET), refused ones included, and every sign-in: who, their role, what (`METHOD /path`), the status it got, when, from which address and its request id. Newest first, cursor-paginated, kept 400 days. Integrators’ clients are not in it.',
    success: {
      status: 200,
      description: 'A page of entries.',
      schema: auditPage,
      example: lastPageExample(auditEntryExample),
    },
  },
} as const;
