import { tokenRequest } from '../auth/schema.ts';
import { issueToken } from '../auth/service.ts';
import { ok, operation } from '../http/api-function.ts';

/** The operations of functions/api/auth.ts, by the operation names of lib/routes.ts. */
export const authOperations = {
  issueToken: operation({
    body: tokenRequest,
    handle: async ({ caller, body, sourceIp, now }) => ok(await issueToken(caller, body, { sourceIp, now })),
  }),
};
