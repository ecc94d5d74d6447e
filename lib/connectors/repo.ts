// The connector catalogue in the table: one partition per environment (platform data, loaded by the
// admin CLI), items sorted by connector id. Filter members are kept upper-case beside the entry.

import { entity, recordOf } from '../db/entity.ts';
import { getRecord, putIf } from '../db/items.ts';
import { connectorKeys } from '../db/keys.ts';
import { type PageRequest, queryPage } from '../db/paginate.ts';
import type { Environment } from '../http/types.ts';
import type { ConnectorEntry } from './catalogue-schema.ts';
import type { ConnectorFilters } from './schema.ts';

export interface ConnectorRecord extends ConnectorEntry {
  environment: Environment;
  /** `region.iso`, kept flat for the list filter. */
  countryIsoCode2: string;
  loadedAt: string;
}

const connectorOf = (item: Record<string, unknown>) => recordOf<ConnectorRecord>(item);

export async function findConnector(
  environment: Environment,
  connectorId: string,
): Promise<ConnectorRecord | undefined> {
  return getRecord<ConnectorRecord>(connectorKeys.connector(environment, connectorId));
}

/** A catalogue entry: platform data, one partition per environment. */
const connectorEntity = entity<ConnectorRecord>({
  type: 'connector',
  keyOf: (record) => connectorKeys.connector(record.environment, record.id),
});

/** Adds or replaces a catalogue entry. */
export async function putConnector(
  environment: Environment,
  entry: ConnectorEntry,
  now: Date,
): Promise<void> {
  await putIf(connectorEntity, {
    ...entry,
    environment,
    countryIsoCode2: entry.region.iso,
    loadedAt: now.toISOString(),
  });
}

export function listConnectorPage(environment: Environment, filters: ConnectorFilters, page: PageRequest) {
  const { countryIsoCode2, method, direction, flow } = filters;
  return queryPage(
    {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': connectorKeys.catalogue(environment) },
      filters: { equals: { countryIsoCode2, method, direction, flow } },
    },
    page,
    (item) => ({ pk: item.pk, sk: item.sk }),
    connectorOf,
  );
}
