import { apiFunction, ok, operation } from '../../lib/api.ts';
import { tokenRequest } from '../../lib/auth/schema.ts';
import { issueToken } from '../../lib/auth/service.ts';

export const handler = apiFunction('auth', {
  issueToken: operation({
    body: tokenRequest,
    handle: async ({ caller, body, now }) => ok(await issueToken(caller, body, now)),
  }),
});
