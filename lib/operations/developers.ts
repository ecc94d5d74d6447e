import { createCredentialBody, credentialIdParams, credentialsQuery } from '../auth/schema.ts';
import {
  createTenantCredential,
  listTenantCredentials,
  revokeTenantCredential,
} from '../auth/tenant-credentials.ts';
import { ok, operation } from '../http/api-function.ts';
import { requestLogQuery } from '../request-log/schema.ts';
import { requestLog } from '../request-log/service.ts';

/** The Developers page's operations (functions/api/portal.ts serves them), by lib/routes.ts's names. */
export const developersOperations = {
  listCredentials: operation({
    query: credentialsQuery,
    handle: async ({ tenant, query }) => ok(await listTenantCredentials(tenant, query)),
  }),
  createCredential: operation({
    body: createCredentialBody,
    handle: async ({ tenant, body, caller, now }) => ({
      status: 201,
      body: await createTenantCredential(
        tenant,
        body.kind,
        { name: body.name, createdBy: caller.person?.email },
        now,
      ),
    }),
  }),
  revokeCredential: operation({
    params: credentialIdParams,
    handle: async ({ tenant, params, now }) =>
      ok(await revokeTenantCredential(tenant, params.credentialId, now)),
  }),
  listRequestLog: operation({
    query: requestLogQuery,
    handle: async ({ tenant, query, now }) => ok(await requestLog(tenant, query, now)),
  }),
};
