// Connectors: the catalogue of the caller's environment, one connector with the execution steps of a
// transaction type, its compliance requirements, and the vocabularies those requirements use.
import { tenantScope } from '../db/keys.ts';
import { notFound, unprocessable } from '../http/problem.ts';
import type { Environment, Tenant } from '../tenant.ts';
import { type ConnectorRecord, findConnector, listConnectorPage } from './repo.ts';
import type { ConnectorFilters } from './schema.ts';
import { shortForm, type TransactionType } from './transaction-types.ts';
import { vocabularies } from './vocabularies.ts';

/**
 * The public face of a connector, built member by member: settlement, fee and compliance internals
 * (and any member added to the catalogue later) never reach a response unless listed here.
 */
export function toConnectorResource(record: ConnectorRecord) {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    acceptedAsset: record.acceptedAsset,
    destinationAsset: record.destinationAsset,
    direction: record.direction,
    method: record.method,
    flow: record.flow,
    status: record.status,
    requiresQuote: record.requiresQuote,
    isActive: record.isActive,
    methodProvider: {
      name: record.methodProvider.name,
      description: record.methodProvider.description,
      imageUrl: record.methodProvider.imageUrl,
    },
    limits: record.limits.map(({ scope, type, duration, minValue, maxValue, currency }) => ({
      scope,
      type,
      duration,
      minValue,
      maxValue,
      currency,
    })),
    transactionTypes: record.transactionTypes.map(({ type, status }) => ({ type, status })),
    supportedTransactionType: {
      b2b: record.supportedTransactionType.b2b,
      b2c: record.supportedTransactionType.b2c,
      c2b: record.supportedTransactionType.c2b,
      c2c: record.supportedTransactionType.c2c,
    },
    region: { iso: record.region.iso },
  };
}

export async function connectorOrNotFound(environment: Environment, connectorId: string) {
  const connector = await findConnector(environment, connectorId);
  if (!connector) throw notFound(`No connector ${connectorId}.`);
  return connector;
}

export async function listConnectors(
  tenant: Tenant,
  query: ConnectorFilters & { limit: number; cursor?: string | undefined },
) {
  const { limit, cursor, ...filters } = query;
  const page = await listConnectorPage(tenant.environment, filters, {
    limit,
    cursor,
    binding: { scope: tenantScope(tenant), query: `connectors?${JSON.stringify(filters)}` },
  });
  return { data: page.data.map(toConnectorResource), pagination: page.pagination };
}

/** One connector with the execution steps of `transactionType` (none when it does not list that type). */
export async function getConnector(tenant: Tenant, connectorId: string, transactionType: TransactionType) {
  const connector = await connectorOrNotFound(tenant.environment, connectorId);
  const steps = connector.execution[transactionType] ?? [];
  return {
    ...toConnectorResource(connector),
    execution: steps.map((s) => ({
      step: s.step,
      name: s.name,
      path: s.path,
      method: s.method,
      requestDefinition: s.requestDefinition,
      responseDefinition: s.responseDefinition,
      additionalInstructions: s.additionalInstructions,
    })),
  };
}

/** The compliance fields a payment through the connector needs for `transactionType`, by party. */
export async function getRequirements(tenant: Tenant, connectorId: string, transactionType: TransactionType) {
  const connector = await connectorOrNotFound(tenant.environment, connectorId);
  const set = connector.compliance[transactionType];
  if (!set)
    throw unprocessable(
      `Connector ${connectorId} does not support transaction type ${shortForm(transactionType)}.`,
      [
        {
          field: 'transactionType',
          message: `${shortForm(transactionType)} is not supported by connector ${connectorId}`,
        },
      ],
    );
  const items = (list: typeof set.sender) =>
    list.map(({ field, type, required, vocabulary }) => ({
      field,
      type,
      required,
      ...(vocabulary ? { vocabulary } : {}),
    }));
  return {
    connectorId: connector.id,
    transactionType: shortForm(transactionType),
    sender: items(set.sender),
    beneficiary: items(set.beneficiary),
    destination: items(set.destination),
  };
}

export const getEnums = () => vocabularies;
