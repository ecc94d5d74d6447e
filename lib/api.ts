// The composition root of the API functions: lib/http's chain, given this service's authenticator.
// Every function under functions/api declares its operations with these.
import { authenticateApplication, authenticateBearer } from './auth/service.ts';
import { apiFunctionWith } from './http/api-function.ts';

export { accepted, ok, operation } from './http/api-function.ts';

export const apiFunction = apiFunctionWith({
  authenticator: { application: authenticateApplication, bearer: authenticateBearer },
});
