// The client: openapi-fetch over the generated types, with what every integrator otherwise writes by
// hand: a token fetched and refreshed before it expires, retries of 429/503, and of 504 where a replay
// is harmless (Retry-After first, else exponential backoff; a payment's body, and so its transactionId,
// is the same on every attempt, which the API answers idempotently), problems thrown as ApiProblem, and a wait for settlement.
import createClient, { type Client } from 'openapi-fetch';
import { ApiProblem } from './errors.js';
import type { components, paths } from './generated/api.js';

export type Transaction = components['schemas']['Transaction'];

export interface GatewayOptions {
  /** Where the API is, `…/v1` included (the local stack writes it to .local/credentials.json). */
  baseUrl: string;
  /** The application's key (`pgw_<environment>_…`). */
  apiKey: string;
  clientId: string;
  clientSecret: string;
  /** Attempts per request for 429, 503 and a replayable 504 (default 4: the first and three retries). */
  maxAttempts?: number;
  /** The first backoff when the answer has no Retry-After (default 250 ms; doubled each time). */
  backoffMs?: number;
  /** A token is renewed this long before it expires (default 60 s). */
  refreshBeforeMs?: number;
  fetch?: typeof fetch;
}

/** Refused before anything was done (rate limit, unavailable): always safe to send again. */
const RETRIED = new Set([429, 503]);

/**
 * A 504 may come after the work was done, so only a request the API answers idempotently is sent
 * again: reads, PUT and DELETE, a token, and a payment (its transactionId makes a replay answer the
 * first record). Another POST (a wallet, a webhook registration…) would be done twice: its 504 is
 * returned, for the caller to look before trying again.
 */
async function isReplayable(request: Request): Promise<boolean> {
  if (request.method !== 'POST') return true;
  if (new URL(request.url).pathname.endsWith('/auth/token')) return true;
  try {
    const body: unknown = JSON.parse(await request.clone().text());
    return typeof body === 'object' && body !== null && 'transactionId' in body;
  } catch {
    return false;
  }
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds to wait before attempt `attempt` + 1: the server's Retry-After (seconds), else backoff. */
function delayOf(response: Response, attempt: number, backoffMs: number): number {
  const retryAfter = Number(response.headers.get('retry-after'));
  if (response.headers.has('retry-after') && Number.isFinite(retryAfter) && retryAfter >= 0)
    return retryAfter * 1000;
  return backoffMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2);
}

export interface Gateway {
  /** The typed API: `api.GET('/wallets/{walletId}', { params: { path: { walletId } } })`. */
  api: Client<paths>;
  /** A new transactionId (a UUID): make it once per payment and keep it for every retry of it. */
  newTransactionId(): string;
  /** `data` of an openapi-fetch answer, or the ApiProblem it carried. */
  ok<T>(answer: { data?: T; error?: unknown; response: Response }): T;
  /** Reads the transaction until its status leaves `initiated` and `processing`. */
  waitForSettlement(
    transactionId: string,
    options?: { intervalMs?: number; timeoutMs?: number },
  ): Promise<Transaction>;
}

export function createGateway(options: GatewayOptions): Gateway {
  const baseFetch = options.fetch ?? globalThis.fetch;
  const maxAttempts = options.maxAttempts ?? 4;
  const backoffMs = options.backoffMs ?? 250;
  const refreshBeforeMs = options.refreshBeforeMs ?? 60_000;
  let token: { value: string; expiresAt: number } | undefined;
  let pending: Promise<string> | undefined;

  /** Sends `request` (cloned each time, so its body can be sent again), retrying what may be retried. */
  async function withRetries(request: Request): Promise<Response> {
    const replayable = await isReplayable(request);
    for (let attempt = 1; ; attempt++) {
      const response = await baseFetch(request.clone());
      const retried = response.status === 504 ? replayable : RETRIED.has(response.status);
      if (!retried || attempt >= maxAttempts) return response;
      await response.body?.cancel();
      await sleep(delayOf(response, attempt, backoffMs));
    }
  }

  async function issueToken(): Promise<string> {
    const response = await withRetries(
      new Request(`${options.baseUrl}/auth/token`, {
        method: 'POST',
        headers: { 'x-service-auth': options.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: options.clientId, clientSecret: options.clientSecret }),
      }),
    );
    const text = await response.text();
    if (!response.ok) throw new ApiProblem(response.status, parsed(text), text);
    const body = JSON.parse(text) as components['schemas']['Token'];
    token = { value: body.accessToken, expiresAt: Date.now() + body.expiresIn * 1000 };
    return body.accessToken;
  }

  /** The current token, renewed `refreshBeforeMs` before it expires; one renewal at a time. */
  function currentToken(): Promise<string> {
    if (token && Date.now() < token.expiresAt - refreshBeforeMs) return Promise.resolve(token.value);
    pending ??= issueToken().finally(() => {
      pending = undefined;
    });
    return pending;
  }

  const api = createClient<paths>({
    baseUrl: options.baseUrl,
    fetch: async (request: Request) => {
      request.headers.set('x-service-auth', options.apiKey);
      if (!new URL(request.url).pathname.endsWith('/auth/token'))
        request.headers.set('authorization', `Bearer ${await currentToken()}`);
      return withRetries(request);
    },
  });

  const ok = <T>({ data, error, response }: { data?: T; error?: unknown; response: Response }): T => {
    if (error !== undefined || data === undefined)
      throw new ApiProblem(response.status, error as ConstructorParameters<typeof ApiProblem>[1], '');
    return data;
  };

  return {
    api,
    newTransactionId: () => crypto.randomUUID(),
    ok,
    async waitForSettlement(transactionId, { intervalMs = 200, timeoutMs = 60_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const record = ok(
          await api.GET('/transactions/{transactionId}', { params: { path: { transactionId } } }),
        );
        if (record.status !== 'initiated' && record.status !== 'processing') return record;
        if (Date.now() > deadline)
          throw new Error(`transaction ${transactionId} is still ${record.status} after ${timeoutMs} ms`);
        await sleep(intervalMs);
      }
    },
  };
}

function parsed(text: string): ConstructorParameters<typeof ApiProblem>[1] {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
