// One page of a Query, as the API's `{data, pagination}`: read limit+1 to know whether more exist.
//
// A page costs O(page) reads whatever the collection's size: each request reads at most `readBudget`
// items. The key condition selects the page (lib/db/keys.ts: every documented filter has an index whose
// sort key orders it as the list does); a filter it does not key holds items back in the page, and when
// the budget runs out first the page is short, `hasMore` is true and the cursor resumes where the read
// stopped.
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import type { Page } from '../http/pagination.ts';
import type { Tenant } from '../tenant.ts';
import { db, tableName } from './client.ts';
import { type CursorBinding, decodeCursor, encodeCursor } from './cursor.ts';
import { recordOf } from './entity.ts';
import { filterInput, type ListFilters, matchesFilters } from './filters.ts';
import { getItems } from './items.ts';
import { type ItemKey, type ListIndex, tenantScope } from './keys.ts';
import { KEYS_ONLY_INDEX_OF } from './table.ts';

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
  binding: CursorBinding;
}

/** The items one request may read: a page and its look-ahead, or a page's worth of items held back. */
export const readBudget = (limit: number): number => 2 * limit;

type QueryShape = Omit<
  QueryCommandInput,
  'TableName' | 'Limit' | 'ExclusiveStartKey' | 'FilterExpression'
> & {
  filters?: ListFilters;
  /**
   * Where the record an entry of a keys-only list index stands for is read: the tenant's own partition
   * for tenant-owned records (never a key the index hands back as it is), the catalogue's for platform
   * data. Without it, the entry's own table key.
   */
  recordKeyOf?: (entry: Record<string, unknown>) => ItemKey;
};

/**
 * When the index holds entries that stand for records (a record found by one of its wallets): reads the
 * records the entries name (each counted against the budget) and keeps an entry only if its record is
 * there and passes the filters the entry cannot hold. Entries and records come back in order.
 */
export interface Resolve {
  records(entries: Record<string, unknown>[]): Promise<(Record<string, unknown> | undefined)[]>;
  accept(entry: Record<string, unknown>, record: Record<string, unknown>): boolean;
}

/** An item's key as a position of a Query on `index` (the table's own when none): what a cursor holds. */
export const positionOn =
  (index?: string) =>
  (item: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(
      ['pk', 'sk', ...(index ? [`${index}pk`, `${index}sk`] : [])].map((name) => [name, item[name]]),
    );

/**
 * The index a list filter's keys are read on (lib/db/table.ts): its keys-only index, or on a stage still
 * moving to those, the projected one on the same key attributes.
 */
export const readsKeysOnly = (): boolean => config().LIST_INDEX_READS === 'KEYS_ONLY';
export const listIndexName = (index: ListIndex): string =>
  readsKeysOnly() ? KEYS_ONLY_INDEX_OF[index] : index;

/** The list a keys-only index serves, if it is one. */
const keysOnlyList = (indexName: string | undefined): ListIndex | undefined =>
  (Object.entries(KEYS_ONLY_INDEX_OF) as [ListIndex, string][]).find(([, name]) => name === indexName)?.[0];

/**
 * A keys-only index's entries resolved to their records: each read by key, and kept only while the record
 * still holds the entry's index keys and passes the filters (an index lags its table: a record moved on
 * since, to another status, is not listed under the one it left; the cursor stays on the index's entry).
 */
function keysOnlyResolve(list: ListIndex, query: QueryShape, resolve: Resolve | undefined): Resolve {
  const recordKeyOf = query.recordKeyOf ?? ((entry) => ({ pk: String(entry.pk), sk: String(entry.sk) }));
  const [pk, sk] = [`${list}pk`, `${list}sk`];
  return {
    records: (entries) => getItems(entries.map(recordKeyOf)),
    accept: (entry, record) =>
      record[pk] === entry[pk] &&
      record[sk] === entry[sk] &&
      matchesFilters(query.filters ?? {}, record) &&
      (resolve?.accept(entry, record) ?? true),
  };
}

/** One partition of a list index (lib/db/keys.ts), in its sort key's order. */
export const listPartition = (index: ListIndex, pk: string) => ({
  IndexName: listIndexName(index),
  KeyConditionExpression: `${index}pk = :pk`,
  ExpressionAttributeValues: { ':pk': pk },
});

/**
 * A partition's items under a sort key prefix, as a range: DynamoDB Local answers `begins_with` by
 * reading the partition from its first item (the bench's lists grew with the items sorted before the
 * prefix), a range from the prefix on; DynamoDB serves both from the key.
 */
export const underPrefix = (pk: string, prefix: string) => ({
  KeyConditionExpression: 'pk = :pk AND sk BETWEEN :prefix AND :prefixEnd',
  ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix, ':prefixEnd': `${prefix}\uffff` },
});

function queryInput(query: QueryShape) {
  const { filters, recordKeyOf: _, ...keyCondition } = query;
  // A keys-only index holds no attribute to filter on: the filters hold on the records read by key.
  const filter = keysOnlyList(query.IndexName) ? {} : filterInput(filters ?? {});
  const names = { ...keyCondition.ExpressionAttributeNames, ...filter.ExpressionAttributeNames };
  return {
    ...keyCondition,
    ...(filter.FilterExpression ? { FilterExpression: filter.FilterExpression } : {}),
    // DynamoDB refuses an empty map of names.
    ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: {
      ...keyCondition.ExpressionAttributeValues,
      ...filter.ExpressionAttributeValues,
    },
  };
}

export async function queryPage<T>(
  query: QueryShape,
  page: PageRequest,
  keyOf: (item: Record<string, unknown>) => Record<string, unknown>,
  toResource: (item: Record<string, unknown>) => T,
  resolveEntries?: Resolve,
): Promise<Page<T>> {
  const input = queryInput(query);
  const list = keysOnlyList(query.IndexName);
  const resolve = list ? keysOnlyResolve(list, query, resolveEntries) : resolveEntries;
  let startKey = page.cursor ? await decodeCursor(page.cursor, page.binding) : undefined;
  // An entry to resolve costs a second read, its record's; the look-ahead entry (the one past a full
  // page) is not resolved: that the index holds it says there is more.
  let budget = readBudget(page.limit) + (resolve ? 1 : 0);
  const found: { entry: Record<string, unknown>; item?: Record<string, unknown> }[] = [];
  // Read on until the page (plus one, to know whether there is more) is full, the budget is spent or
  // the key condition is exhausted.
  do {
    const wanted = page.limit + 1 - found.length;
    const result = await db.send(
      new QueryCommand({
        ...input,
        TableName: tableName(),
        Limit: Math.min(wanted, resolve ? Math.floor((budget + 1) / 2) : budget),
        ExclusiveStartKey: startKey,
      }),
    );
    const entries = result.Items ?? [];
    budget -= result.ScannedCount ?? entries.length;
    startKey = result.LastEvaluatedKey;
    if (resolve) {
      const resolving = entries.slice(0, page.limit - found.length);
      const records = await resolve.records(resolving);
      budget -= records.filter(Boolean).length;
      resolving.forEach((entry, i) => {
        const record = records[i];
        if (record && resolve.accept(entry, record)) found.push({ entry, item: record });
      });
      const lookAhead = entries[resolving.length];
      const lastResolved = resolving.at(-1);
      if (lookAhead && found.length === page.limit) found.push({ entry: lookAhead });
      // Entries read past those resolved are read again from the last one resolved.
      else if (lookAhead && lastResolved) startKey = keyOf(lastResolved);
    } else found.push(...entries.map((entry) => ({ entry, item: entry })));
  } while (startKey && found.length <= page.limit && budget >= (resolve ? 2 : 1));
  const items = found.slice(0, page.limit);
  const last = items.at(-1);
  // A full page resumes after its last item; a short one where the read stopped (its budget spent).
  const resumeAt = found.length > page.limit ? last && keyOf(last.entry) : startKey;
  return {
    data: items.map(({ item }) => toResource(item as Record<string, unknown>)),
    pagination: {
      nextCursor: resumeAt ? await encodeCursor(page.binding, resumeAt) : null,
      hasMore: Boolean(resumeAt),
    },
  };
}

/** A partition's items, newest first (their sort keys start with the time): an audit or request log. */
export const newestFirstPage = <R>(pk: string, page: PageRequest) =>
  queryPage(
    { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ScanIndexForward: false },
    page,
    (item) => ({ pk: item.pk, sk: item.sk }),
    (item) => recordOf<R>(item),
  );

/**
 * A page of the tenant's own records, read on the table's keys: the cursor is bound to the tenant and to
 * `listed` (the list's name and what it filters on), so it resumes nothing else.
 */
export const tenantRecordPage = <T>(
  tenant: Tenant,
  query: QueryShape,
  listed: string,
  page: Omit<PageRequest, 'binding'>,
  resolve?: Resolve,
): Promise<Page<T>> =>
  queryPage(
    query,
    { ...page, binding: { scope: tenantScope(tenant), query: listed } },
    positionOn(),
    (item) => recordOf<T>(item),
    resolve,
  );
