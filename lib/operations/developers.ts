import {
  clientIdParams,
  createApiKeyBody,
  createClientBody,
  credentialsQuery,
  keyIdParams,
} from '../auth/schema.ts';
import {
  createTenantApiKey,
  createTenantClient,
  listTenantApiKeys,
  listTenantClients,
  revokeTenantApiKey,
  revokeTenantClient,
} from '../auth/tenant-credentials.ts';
import { ok, operation } from '../http/api-function.ts';
import { requestLogQuery } from '../request-log/schema.ts';
import { requestLog } from '../request-log/service.ts';

/** The person behind the call ('person' routes: lib/http/authenticate.ts made sure there is one). */
const personOf = (caller: { person?: { email: string } }) => caller.person?.email;

/** The Developers page's operations (functions/api/portal.ts serves them), by lib/routes.ts's names. */
export const developersOperations = {
  listApiKeys: operation({
    query: credentialsQuery,
    handle: async ({ tenant, query }) => ok(await listTenantApiKeys(tenant, query)),
  }),
  createApiKey: operation({
    body: createApiKeyBody,
    handle: async ({ tenant, body, caller, now }) => ({
      status: 201,
      body: await createTenantApiKey(tenant, { name: body.name, createdBy: personOf(caller) }, now),
    }),
  }),
  revokeApiKey: operation({
    params: keyIdParams,
    handle: async ({ tenant, params, now }) => ok(await revokeTenantApiKey(tenant, params.keyId, now)),
  }),
  listClients: operation({
    query: credentialsQuery,
    handle: async ({ tenant, query }) => ok(await listTenantClients(tenant, query)),
  }),
  createClient: operation({
    body: createClientBody,
    handle: async ({ tenant, body, caller, now }) => ({
      status: 201,
      body: await createTenantClient(tenant, { name: body.name, createdBy: personOf(caller) }, now),
    }),
  }),
  revokeClient: operation({
    params: clientIdParams,
    handle: async ({ tenant, params, now }) => ok(await revokeTenantClient(tenant, params.clientId, now)),
  }),
  listRequestLog: operation({
    query: requestLogQuery,
    handle: async ({ tenant, query, now }) => ok(await requestLog(tenant, query, now)),
  }),
};
