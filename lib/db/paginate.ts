// One page of a Query, as the API's `{data, pagination}`: read limit+1 to know whether more exist.
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { type CursorBinding, decodeCursor, encodeCursor, type Page } from '../http/pagination.ts';
import { db, tableName } from './client.ts';

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
  binding: CursorBinding;
}

type QueryShape = Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>;

export async function queryPage<T>(
  query: QueryShape,
  page: PageRequest,
  keyOf: (item: Record<string, unknown>) => Record<string, unknown>,
  toResource: (item: Record<string, unknown>) => T,
): Promise<Page<T>> {
  const start = page.cursor ? await decodeCursor(page.cursor, page.binding) : undefined;
  const { Items = [] } = await db.send(
    new QueryCommand({ ...query, TableName: tableName(), Limit: page.limit + 1, ExclusiveStartKey: start }),
  );
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
