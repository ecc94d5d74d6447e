// The composition root of the API functions: lib/http's chain, given this service's authenticator.
// Every function under functions/api declares its operations with these.
import { authenticateApplication, authenticateBearer } from './auth/service.ts';
import { readSecretJson } from './aws/secrets.ts';
import { config } from './config.ts';
import { apiFunctionWith, type ChainServices } from './http/api-function.ts';
import { serviceUnavailable } from './http/problem.ts';
import type { RequestRecord } from './http/request-records.ts';
import { admitRequest } from './limits/service.ts';
import { authenticatePerson, recordAudit } from './people/access.ts';
import { logRequest } from './request-log/service.ts';

export { accepted, ok, operation } from './http/api-function.ts';

/** A request with a token the function does not hold re-reads them at most this often: a flood of wrong
 * tokens costs Secrets Manager two reads a second per instance, a rotation a second of 403s at most. */
const ORIGIN_TOKEN_REREAD_MS = 1000;
let originTokensRereadAt = 0;

/** The token CloudFront sends (`{token}` in ORIGIN_VERIFY_SECRET_ID) and, during a rotation, the one before. */
async function originTokens({ reread = false } = {}): Promise<readonly string[] | undefined> {
  const secretId = config().ORIGIN_VERIFY_SECRET_ID;
  if (secretId === undefined) return undefined;
  const forceFetch = reread && Date.now() - originTokensRereadAt >= ORIGIN_TOKEN_REREAD_MS;
  if (forceFetch) originTokensRereadAt = Date.now();
  const [current, previous] = await Promise.all([
    readSecretJson(secretId, { forceFetch }),
    readSecretJson(secretId, { forceFetch, previous: true }),
  ]);
  const tokenOf = (version: unknown) => ((version ?? {}) as { token?: unknown }).token;
  const token = tokenOf(current);
  if (typeof token !== 'string' || token === '') throw serviceUnavailable('The origin token is unreadable.');
  const before = tokenOf(previous);
  return typeof before === 'string' && before !== '' ? [token, before] : [token];
}

/** A tenant's request in its request log, and a person's state change in the team's audit log too. */
async function recordRequest(request: RequestRecord): Promise<void> {
  const { tenant, caller, method, path, status, requestId, sourceIp, at } = request;
  await Promise.all([
    logRequest(request),
    caller.kind === 'person' && method !== 'GET'
      ? recordAudit(tenant, {
          at,
          actor: caller.id,
          role: caller.role,
          action: `${method} ${path}`,
          status,
          requestId,
          sourceIp,
        })
      : undefined,
  ]);
}

/** What every API function's chain is given (lib/provider-api.ts adds the provider caller kind's step). */
export const chainServices = {
  authenticator: {
    application: authenticateApplication,
    bearer: authenticateBearer,
    person: authenticatePerson,
  },
  limiter: (application, route, now) => admitRequest(application.applicationId, route, now),
  originTokens,
  requests: recordRequest,
} satisfies ChainServices;

export const apiFunction = apiFunctionWith(chainServices);
