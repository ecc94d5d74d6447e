// The client as a portal person uses it (a browser, or a script acting for someone signed in): no API
// key or client secret, only a short-lived bearer token the portal's session mints (POST /portal/token),
// held in memory and minted again before it expires. The session cookie itself goes with same-origin
// requests on its own.
import createClient, { type Client } from 'openapi-fetch';
import { ApiProblem } from './errors.js';
import type { components, paths } from './generated/api.js';

export type PersonToken = components['schemas']['PortalToken'];

export interface PersonGatewayOptions {
  /** Where the API is, `…/v1` included; the portal passes its own origin's `/v1`. */
  baseUrl: string;
  /** Which of the person's tenants the tokens are for (default: their first). */
  tenant?: { environment?: 'sandbox' | 'production'; associationId?: string };
  /** A token is minted again this long before it expires (default 30 s). */
  refreshBeforeMs?: number;
  fetch?: typeof fetch;
}

export interface PersonGateway {
  /** The typed API, each request carrying the person's current token. */
  api: Client<paths>;
  /** `data` of an openapi-fetch answer, or the ApiProblem it carried. */
  ok<T>(answer: { data?: T; error?: unknown; response: Response }): T;
  /** The current token (minting one when there is none or it is about to expire): who, which tenant, which role. */
  token(): Promise<PersonToken>;
  /** Forgets the token (after signing out, or to switch tenants). */
  forget(): void;
}

export function ok<T>({ data, error, response }: { data?: T; error?: unknown; response: Response }): T {
  if (error !== undefined || data === undefined)
    throw new ApiProblem(response.status, error as ConstructorParameters<typeof ApiProblem>[1], '');
  return data;
}

export function createPersonGateway(options: PersonGatewayOptions): PersonGateway {
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const refreshBeforeMs = options.refreshBeforeMs ?? 30_000;
  let current: { token: PersonToken; expiresAt: number } | undefined;
  let pending: Promise<PersonToken> | undefined;
  const session = createClient<paths>({
    baseUrl: options.baseUrl,
    fetch: baseFetch,
    credentials: 'same-origin',
  });

  async function mint(): Promise<PersonToken> {
    const token = ok(await session.POST('/portal/token', { body: { ...options.tenant } }));
    current = { token, expiresAt: Date.now() + token.expiresIn * 1000 };
    return token;
  }

  function token(): Promise<PersonToken> {
    if (current && Date.now() < current.expiresAt - refreshBeforeMs) return Promise.resolve(current.token);
    pending ??= mint().finally(() => {
      pending = undefined;
    });
    return pending;
  }

  const api = createClient<paths>({
    baseUrl: options.baseUrl,
    fetch: async (request: Request) => {
      if (!new URL(request.url).pathname.includes('/portal/'))
        request.headers.set('authorization', `Bearer ${(await token()).accessToken}`);
      return baseFetch(request);
    },
  });

  return {
    api,
    ok,
    token,
    forget: () => {
      current = undefined;
    },
  };
}
