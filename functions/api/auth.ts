import { tokenRequest } from '../../lib/auth/schema.ts';
import { issueToken } from '../../lib/auth/service.ts';
import { apiFunction, ok, operation } from '../../lib/http/api-function.ts';

export const handler = apiFunction('auth', {
  issueToken: operation({
    body: tokenRequest,
    handle: async ({ caller, body, now }) => ok(await issueToken(caller, body, now)),
  }),
});
