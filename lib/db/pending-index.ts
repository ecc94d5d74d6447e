// The pending index (lib/db/table.ts, lib/db/keys.ts pendingKeys): records whose outbox work is still
// owed, by the time they entered that state. Platform-wide like the platform index: only the outbox
// reconciler reads it, with a key condition that reaches only records pending since before its bound.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import type { Environment } from '../tenant.ts';
import { db, tableName } from './client.ts';
import { holds } from './conditions.ts';
import { getItems, updateIf, type Written } from './items.ts';
import { type ItemKey, PENDING_INDEX, PENDING_KEYS_INDEX, pendingKeys } from './keys.ts';

/** An item as the table holds it (keys, `type`, pendingSk included): what the stream's images carry. */
export type PendingItem = Record<string, unknown> & ItemKey & { type: string; pendingSk: string };

type Entry = ItemKey & { pendingPk: string; pendingSk: string };

/** The index the stage's step reads (lib/db/table.ts): the keys-only one, or the projected one before it. */
const readIndex = () => (config().PENDING_INDEX_READS === 'KEYS_ONLY' ? PENDING_KEYS_INDEX : PENDING_INDEX);

/**
 * The items of a page of entries, in its order. The projected index holds them whole; the keys-only one
 * holds their keys, so each is read by key (strongly consistent) and kept only while it still holds the
 * entry's place: an index lags its table, and a record settled or re-driven since has left that place.
 */
async function itemsOf(entries: Entry[]): Promise<PendingItem[]> {
  if (readIndex() === PENDING_INDEX) return entries as unknown as PendingItem[];
  const found = await getItems(
    entries.map(({ pk, sk }) => ({ pk, sk })),
    { consistent: true },
  );
  return entries.flatMap((entry, i) => {
    const item = found[i];
    return item?.pendingPk === entry.pendingPk && item.pendingSk === entry.pendingSk
      ? [item as PendingItem]
      : [];
  });
}

/** The oldest `limit` items of `itemType` pending since before `before`, oldest first. */
export async function pendingBefore(
  environment: Environment,
  itemType: string,
  before: string,
  limit: number,
): Promise<PendingItem[]> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: readIndex(),
      KeyConditionExpression: 'pendingPk = :pk AND pendingSk < :before',
      ExpressionAttributeValues: { ':pk': pendingKeys.partition(environment, itemType), ':before': before },
      Limit: limit,
    }),
  );
  return itemsOf(Items as Entry[]);
}

/**
 * Moves a re-driven item's place on the index to `at`, so the next run re-drives it again only one bound
 * later; only while it is still pending as it was read (a record its worker settled meanwhile has left).
 */
export const markRedriven = (item: PendingItem, at: string): Promise<Written<unknown>> =>
  updateIf({ pk: item.pk, sk: item.sk }, { set: { pendingSk: at } }, holds({ pendingSk: item.pendingSk }));

/** Every item of `itemType` on the pending index, oldest first (platform operations: what is owed). */
export async function pendingAll(environment: Environment, itemType: string): Promise<PendingItem[]> {
  const items: PendingItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: readIndex(),
        KeyConditionExpression: 'pendingPk = :pk',
        ExpressionAttributeValues: { ':pk': pendingKeys.partition(environment, itemType) },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    items.push(...(await itemsOf((page.Items ?? []) as Entry[])));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}
