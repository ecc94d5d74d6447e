// The item-level reads and writes every repo makes, written once.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import type { ItemKey } from './keys.ts';

/** An item as a domain record: without the table's own attributes (keys, index keys, item type). */
export function recordOf<T>(item: Record<string, unknown> | undefined): T | undefined {
  if (!item) return undefined;
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, type: _type, ...record } = item;
  return record as T;
}

/** The record at `key`, or undefined. `consistent` when the caller just wrote it or races a writer. */
export async function getRecord<T>(
  key: ItemKey,
  options: { consistent?: boolean } = {},
): Promise<T | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: key,
      ...(options.consistent ? { ConsistentRead: true } : {}),
    }),
  );
  return recordOf<T>(Item);
}

/** Writes an item that must not exist yet (ids are random: a collision is a bug, not a retry). */
export const putNewItem = (item: Record<string, unknown>) =>
  db.send(
    new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
  );
