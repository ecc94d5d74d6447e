import {
  connectorIdParams,
  getConnectorQuery,
  listConnectorsQuery,
  requirementsQuery,
} from '../connectors/schema.ts';
import { getConnector, getEnums, getRequirements, listConnectors } from '../connectors/service.ts';
import { ok, operation } from '../http/api-function.ts';
import * as z from '../zod.ts';
import { listOperation } from './tenant-shapes.ts';

/** The operations of functions/api/connectors.ts, by the operation names of lib/routes.ts. */
export const connectorsOperations = {
  listConnectors: listOperation(listConnectorsQuery, listConnectors),
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
};
