// The composition root of the API functions: lib/http's chain, given this service's authenticator.
// Every function under functions/api declares its operations with these.
import { authenticateApplication, authenticateBearer } from './auth/service.ts';
import { readSecretJson } from './aws/secrets.ts';
import { config } from './config.ts';
import { apiFunctionWith } from './http/api-function.ts';
import { serviceUnavailable } from './http/problem.ts';

export { accepted, ok, operation } from './http/api-function.ts';

/** The token CloudFront sends (`{token}` in ORIGIN_VERIFY_SECRET_ID), cached like all key material. */
async function originToken(): Promise<string | undefined> {
  const secretId = config().ORIGIN_VERIFY_SECRET_ID;
  if (secretId === undefined) return undefined;
  const { token } = ((await readSecretJson(secretId)) ?? {}) as { token?: unknown };
  if (typeof token !== 'string' || token === '') throw serviceUnavailable('The origin token is unreadable.');
  return token;
}

export const apiFunction = apiFunctionWith({
  authenticator: { application: authenticateApplication, bearer: authenticateBearer },
  originToken,
});
