import * as z from 'zod';
import {
  connectorIdParams,
  getConnectorQuery,
  listConnectorsQuery,
  requirementsQuery,
} from '../../lib/connectors/schema.ts';
import { getConnector, getEnums, getRequirements, listConnectors } from '../../lib/connectors/service.ts';
import { apiFunction, ok, operation } from '../../lib/http/api-function.ts';

export const handler = apiFunction('connectors', {
  listConnectors: operation({
    query: listConnectorsQuery,
    handle: async ({ tenant, query }) => ok(await listConnectors(tenant, query)),
  }),
  getConnector: operation({
    params: connectorIdParams,
    query: getConnectorQuery,
    handle: async ({ tenant, params, query }) =>
      ok(await getConnector(tenant, params.connectorId, query.transactionType)),
  }),
  getEnums: operation({
    query: z.strictObject({}),
    handle: async () => ok(getEnums()),
  }),
  getRequirements: operation({
    query: requirementsQuery,
    handle: async ({ tenant, query }) =>
      ok(await getRequirements(tenant, query.connectorId, query.transactionType)),
  }),
});
