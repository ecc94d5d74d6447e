// One page of a Query, as the API's `{data, pagination}`: read limit+1 to know whether more exist.
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Page } from '../http/pagination.ts';
import { db, tableName } from './client.ts';
import { type CursorBinding, decodeCursor, encodeCursor } from './cursor.ts';
import { filterInput, type ListFilters } from './filters.ts';

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
  binding: CursorBinding;
}

type QueryShape = Omit<
  QueryCommandInput,
  'TableName' | 'Limit' | 'ExclusiveStartKey' | 'FilterExpression'
> & { filters?: ListFilters };

export async function queryPage<T>(
  query: QueryShape,
  page: PageRequest,
  keyOf: (item: Record<string, unknown>) => Record<string, unknown>,
  toResource: (item: Record<string, unknown>) => T,
): Promise<Page<T>> {
  const { filters, ...keyCondition } = query;
  const filter = filterInput(filters ?? {});
  const names = { ...keyCondition.ExpressionAttributeNames, ...filter.ExpressionAttributeNames };
  const input = {
    ...keyCondition,
    ...(filter.FilterExpression ? { FilterExpression: filter.FilterExpression } : {}),
    // DynamoDB refuses an empty map of names.
    ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: {
      ...keyCondition.ExpressionAttributeValues,
      ...filter.ExpressionAttributeValues,
    },
  };
  let startKey = page.cursor ? await decodeCursor(page.cursor, page.binding) : undefined;
  const Items: Record<string, unknown>[] = [];
  // With a FilterExpression a read can come back short while more matches remain: read on until the
  // page (plus one, to know whether there is more) is full or the partition is exhausted.
  do {
    const result = await db.send(
      new QueryCommand({
        ...input,
        TableName: tableName(),
        Limit: page.limit + 1 - Items.length,
        ExclusiveStartKey: startKey,
      }),
    );
    Items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey && Items.length <= page.limit);
  const items = Items.slice(0, page.limit);
  const hasMore = Items.length > page.limit;
  const last = items.at(-1);
  return {
    data: items.map(toResource),
    pagination: {
      nextCursor: hasMore && last ? await encodeCursor(page.binding, keyOf(last)) : null,
      hasMore,
    },
  };
}
