import { type ApiRequest, accepted, ok, operation, type Reply } from '../http/api-function.ts';
import { forbidden } from '../http/problem.ts';
import { recordAudit } from '../people/access.ts';
import { portalTokenBody, sessionBody, signInBody } from '../people/schema.ts';
import {
  createSession,
  endSessionOf,
  membershipsOfPerson,
  personToken,
  requestSignInCode,
  SESSION_COOKIE,
  SESSION_TTL_SECONDS,
  sessionCookieOf,
  sessionOf,
} from '../people/service.ts';

/**
 * The session cookie: HttpOnly (no script reads it), Secure, SameSite=Strict (no other site's page
 * sends it), `__Host-` (this origin only, Path=/). It is good for nothing but these routes: the public
 * API takes the short-lived bearer token POST /portal/token mints from it.
 */
const sessionCookie = (value: string, maxAge: number) =>
  `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=${maxAge}`;

/**
 * A browser says where a request came from (Sec-Fetch-Site): another site's page is refused before
 * anything is read, on top of SameSite=Strict and the JSON bodies a form cannot send.
 */
function refuseCrossSite(request: ApiRequest<unknown, unknown, unknown>): void {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none')
    throw forbidden('The portal’s routes answer only its own pages.');
}

const cookieOf = (request: ApiRequest<unknown, unknown, unknown>) =>
  sessionCookieOf(request.cookies, undefined);

/** The operations of functions/api/portal.ts, by the operation names of lib/routes.ts. */
export const portalOperations = {
  requestSignInCode: operation({
    body: signInBody,
    handle: async (request): Promise<Reply> => {
      refuseCrossSite(request);
      await requestSignInCode(request.body.email, request.now);
      return accepted({ status: 'sent', detail: 'If this address is on a team, a code is on its way.' });
    },
  }),
  createPortalSession: operation({
    body: sessionBody,
    handle: async (request): Promise<Reply> => {
      refuseCrossSite(request);
      const { email, code } = request.body;
      const { cookieValue, session } = await createSession(email, code, request.now);
      const memberships = await membershipsOfPerson(email);
      for (const m of memberships)
        await recordAudit(m, {
          at: request.now.toISOString(),
          actor: email,
          role: m.role,
          action: 'sign-in',
          status: 201,
          requestId: request.requestId,
          sourceIp: request.sourceIp,
        });
      return {
        status: 201,
        body: { email, expiresAt: new Date(session.expiresAt * 1000).toISOString(), memberships },
        cookies: [sessionCookie(cookieValue, SESSION_TTL_SECONDS)],
      };
    },
  }),
  getPortalSession: operation({
    handle: async (request) => {
      refuseCrossSite(request);
      const session = await sessionOf(cookieOf(request), request.now);
      return ok({
        email: session.email,
        expiresAt: new Date(session.expiresAt * 1000).toISOString(),
        memberships: await membershipsOfPerson(session.email),
      });
    },
  }),
  endPortalSession: operation({
    handle: async (request): Promise<Reply> => {
      refuseCrossSite(request);
      await endSessionOf(cookieOf(request));
      return { status: 200, body: { status: 'signed-out' }, cookies: [sessionCookie('', 0)] };
    },
  }),
  issuePortalToken: operation({
    body: portalTokenBody,
    handle: async (request) => {
      refuseCrossSite(request);
      const session = await sessionOf(cookieOf(request), request.now);
      return ok(await personToken(session, request.body, request.now));
    },
  }),
};
