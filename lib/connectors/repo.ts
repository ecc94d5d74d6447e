// The connector catalogue in the table: one partition per environment (platform data, loaded by the
// admin CLI), items sorted by connector id. Filter members are kept upper-case beside the entry.

import { entity, recordOf } from '../db/entity.ts';
import { getRecord, putIf } from '../db/items.ts';
import { connectorKeys, connectorListFilters, type ListIndex } from '../db/keys.ts';
import { listPartition, type PageRequest, positionOn, queryPage } from '../db/paginate.ts';
import type { Environment } from '../tenant.ts';
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
export const connectorEntity = entity<ConnectorRecord>({
  type: 'connector',
  keyOf: (record) => connectorKeys.connector(record.environment, record.id),
  indexKeysOf: (record) => connectorKeys.listKeys(record.environment, record),
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

/**
 * By id. The first filter given of country, method, direction and flow (the most selective first) reads
 * its list index (lib/db/keys.ts); the others hold items back within the page's read budget.
 */
export function listConnectorPage(environment: Environment, filters: ConnectorFilters, page: PageRequest) {
  const keyed = connectorListFilters.findIndex((filter) => filters[filter] !== undefined);
  const index = keyed < 0 ? undefined : (`list${keyed + 1}` as ListIndex);
  const rest = Object.fromEntries(
    connectorListFilters.filter((_, i) => i !== keyed).map((f) => [f, filters[f]]),
  );
  const filter = connectorListFilters[keyed];
  return queryPage(
    {
      ...(index && filter
        ? {
            ...listPartition(index, connectorKeys.byFilter(environment, filter, String(filters[filter]))),
            recordKeyOf: (entry) => ({ pk: connectorKeys.catalogue(environment), sk: String(entry.sk) }),
          }
        : {
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': connectorKeys.catalogue(environment) },
          }),
      filters: { equals: rest },
    },
    page,
    positionOn(index),
    connectorOf,
  );
}
