// The reads and writes every repo makes, written once: get, create-if-absent, put, update-if, delete(-if),
// read-all-pages and a transaction of several items. A failed condition never escapes as an exception:
// it comes back as what the item holds now (ReturnValuesOnConditionCheckFailure), for the caller to
// turn into a domain result (a replay, a conflict, a not-found).
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { db, tableName } from './client.ts';
import { type Condition, conditionInput } from './conditions.ts';
import { type Entity, itemOf, recordOf } from './entity.ts';
import type { ItemKey } from './keys.ts';

const nonEmpty = <K extends string>(name: K, map: Record<string, unknown>) =>
  (Object.keys(map).length ? { [name]: map } : {}) as Partial<Record<K, Record<string, never>>>;

/** The outcome of a conditional write. */
export type Written<R> =
  | { outcome: 'written'; record: R }
  /** The condition failed on an item that exists: here it is, as it is now. */
  | { outcome: 'conditionFailed'; current: R }
  /** The condition failed because there is no item. */
  | { outcome: 'missing' };

function failedOn<R>(error: unknown): Written<R> {
  if (!(error instanceof ConditionalCheckFailedException)) throw error;
  const item = error.Item as Record<string, never> | undefined;
  return item
    ? { outcome: 'conditionFailed', current: recordOf<R>(unmarshall(item)) }
    : { outcome: 'missing' };
}

/** The record at `key`, or undefined. `consistent` when the caller just wrote it or races a writer. */
export async function getRecord<R>(
  key: ItemKey,
  options: { consistent?: boolean } = {},
): Promise<R | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: key,
      ...(options.consistent ? { ConsistentRead: true } : {}),
    }),
  );
  return recordOf<R>(Item);
}

/**
 * The records at `keys` (in their order; missing ones left out), eventually consistent unless asked:
 * BatchGetItem, 100 keys a call, asking again for what DynamoDB left unprocessed.
 */
export async function getRecords<R>(keys: ItemKey[], options: { consistent?: boolean } = {}): Promise<R[]> {
  const records: R[] = [];
  for (let i = 0; i < keys.length; i += 100)
    for (const item of await getItems(keys.slice(i, i + 100), options))
      if (item) records.push(recordOf<R>(item));
  return records;
}

/** Writes the record if its item does not exist; otherwise answers with the one that does. */
export async function createIfAbsent<R>(definition: Entity<R>, record: R): Promise<Written<R>> {
  return putIf(definition, record, { expression: 'attribute_not_exists(pk)' });
}

/** Writes the whole record if `condition` holds (or unconditionally, for platform data loaded as a whole). */
export async function putIf<R>(definition: Entity<R>, record: R, condition?: Condition): Promise<Written<R>> {
  try {
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: itemOf(definition, record),
        ...(condition
          ? { ...conditionInput(condition), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }
          : {}),
      }),
    );
    return { outcome: 'written', record };
  } catch (error) {
    return failedOn<R>(error);
  }
}

export interface Changes {
  /** Attributes to set. */
  set?: Record<string, unknown>;
  /** Attributes to set only where the item has none yet. */
  setIfAbsent?: Record<string, unknown>;
  /** Attributes to remove. */
  remove?: string[];
  /** Numbers to add to (a counter). */
  add?: Record<string, number>;
  /** Lists to append these items to (a list the item has none of yet starts with them). */
  append?: Record<string, unknown[]>;
  /** Entries of map attributes to set, by map (the map must exist). */
  setEntries?: Record<string, Record<string, unknown>>;
  /** Entries of map attributes to remove, by map. */
  removeEntries?: Record<string, string[]>;
}

function updateInput(changes: Changes) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  let n = 0;
  const placeholder = (attribute: string, value?: unknown) => {
    n += 1;
    names[`#u${n}`] = attribute;
    if (value !== undefined) values[`:u${n}`] = value;
    return n;
  };
  const sets = [
    ...Object.entries(changes.set ?? {}).map(([a, v]) => `#u${placeholder(a, v)} = :u${n}`),
    ...Object.entries(changes.setIfAbsent ?? {}).map(
      ([a, v]) => `#u${placeholder(a, v)} = if_not_exists(#u${n}, :u${n})`,
    ),
    ...Object.entries(changes.append ?? {}).map(([a, v]) => {
      values[':none'] = [];
      return `#u${placeholder(a, v)} = list_append(if_not_exists(#u${n}, :none), :u${n})`;
    }),
    ...Object.entries(changes.setEntries ?? {}).flatMap(([map, entries]) =>
      Object.entries(entries).map(([k, v]) => `#u${placeholder(map)}.#u${placeholder(k, v)} = :u${n}`),
    ),
  ];
  const adds = Object.entries(changes.add ?? {}).map(([a, v]) => `#u${placeholder(a, v)} :u${n}`);
  const removes = [
    ...(changes.remove ?? []).map((a) => `#u${placeholder(a)}`),
    ...Object.entries(changes.removeEntries ?? {}).flatMap(([map, keys]) =>
      keys.map((k) => `#u${placeholder(map)}.#u${placeholder(k)}`),
    ),
  ];
  const expression = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    adds.length ? `ADD ${adds.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return { expression, names, values };
}

/** Applies `changes` if `condition` holds; the record as it is after the change, or why it did not. */
export async function updateIf<R>(key: ItemKey, changes: Changes, condition: Condition): Promise<Written<R>> {
  const update = updateInput(changes);
  const values = { ...update.values, ...condition.values };
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: update.expression,
        ConditionExpression: condition.expression,
        ...nonEmpty('ExpressionAttributeNames', { ...update.names, ...condition.names }),
        ...nonEmpty('ExpressionAttributeValues', values),
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { outcome: 'written', record: recordOf<R>(Attributes ?? {}) };
  } catch (error) {
    return failedOn<R>(error);
  }
}

/** Deletes the item; the record it held, or undefined when there was none. */
export async function deleteItem<R>(key: ItemKey): Promise<R | undefined> {
  const { Attributes } = await db.send(
    new DeleteCommand({ TableName: tableName(), Key: key, ReturnValues: 'ALL_OLD' }),
  );
  return recordOf<R>(Attributes);
}

/** Deletes the item if `condition` holds: the record it held, or why it was not deleted. */
export async function deleteIf<R>(key: ItemKey, condition: Condition): Promise<Written<R>> {
  try {
    const { Attributes } = await db.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: key,
        ...conditionInput(condition),
        ReturnValues: 'ALL_OLD',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { outcome: 'written', record: recordOf<R>(Attributes ?? {}) };
  } catch (error) {
    return failedOn<R>(error);
  }
}

export type QueryShape = Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>;

/** Every record a query finds, page after page (for small, bounded collections only). */
export async function readAllPages<R>(query: QueryShape): Promise<R[]> {
  const records: R[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db.send(
      new QueryCommand({ ...query, TableName: tableName(), ExclusiveStartKey: startKey }),
    );
    for (const item of result.Items ?? []) records.push(recordOf<R>(item));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return records;
}

/** Writes every record, unconditionally (items written once and never changed: put twice is put once). */
export async function putAll<R>(definition: Entity<R>, records: R[]): Promise<void> {
  for (let i = 0; i < records.length; i += 25) {
    let pending: unknown[] = records
      .slice(i, i + 25)
      .map((record) => ({ PutRequest: { Item: itemOf(definition, record) } }));
    while (pending.length) {
      const { UnprocessedItems } = await db.send(
        new BatchWriteCommand({ RequestItems: { [tableName()]: pending as never } }),
      );
      pending = UnprocessedItems?.[tableName()] ?? [];
    }
  }
}

/** The items at `keys` (at most 100), in the keys' order: undefined where there is none. */
/** BatchGetItem's most keys a call. */
const BATCH_GET_KEYS = 100;

export async function getItems(
  keys: ItemKey[],
  options: { consistent?: boolean } = {},
): Promise<(Record<string, unknown> | undefined)[]> {
  const found = new Map<string, Record<string, unknown>>();
  const id = (key: { pk?: unknown; sk?: unknown }) => `${key.pk}\u0000${key.sk}`;
  const consistent = options.consistent ? { ConsistentRead: true } : {};
  // Asked once each: DynamoDB refuses a batch naming an item twice, and two keys may name one item (a
  // wallet's list entries for one record, one of them written by a replay: lib/payments/repo.ts).
  const unique: ItemKey[] = [...new Map(keys.map((key) => [id(key), key])).values()];
  // BatchGetItem takes at most BATCH_GET_KEYS keys a call.
  for (let from = 0; from < unique.length; from += BATCH_GET_KEYS) {
    let pending = unique.slice(from, from + BATCH_GET_KEYS);
    while (pending.length) {
      const { Responses, UnprocessedKeys } = await db.send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ...consistent } } }),
      );
      for (const item of Responses?.[tableName()] ?? []) found.set(id(item), item);
      pending = (UnprocessedKeys?.[tableName()]?.Keys ?? []) as ItemKey[];
    }
  }
  return keys.map((key) => found.get(id(key)));
}

/** The first record a query finds (ScanIndexForward decides which end), or undefined. */
export async function firstRecord<R>(query: QueryShape): Promise<R | undefined> {
  const result = await db.send(new QueryCommand({ ...query, TableName: tableName(), Limit: 1 }));
  return recordOf<R>(result.Items?.[0]);
}

/** One write of a transaction. */
export type TransactionWrite =
  | { put: { entity: Entity<never>; record: unknown; condition?: Condition } }
  | { update: { key: ItemKey; changes: Changes; condition: Condition } }
  | { check: { key: ItemKey; condition: Condition } }
  | { delete: { key: ItemKey; condition?: Condition } };

/** Why a transaction did not commit: per write, in order, the failed condition's current record, if any. */
export type TransactionOutcome =
  | { outcome: 'written' }
  | { outcome: 'cancelled'; reasons: { code: string; current: Record<string, unknown> | undefined }[] };

/** All of `writes` or none of them (DynamoDB TransactWriteItems, at most 100 writes). */
export async function transact(writes: TransactionWrite[]): Promise<TransactionOutcome> {
  const TableName = tableName();
  const onFailure = { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const };
  const items = writes.map((write) => {
    if ('put' in write) {
      const { entity: definition, record, condition } = write.put;
      return {
        Put: {
          TableName,
          Item: itemOf(definition, record as never),
          ...(condition ? { ...conditionInput(condition), ...onFailure } : {}),
        },
      };
    }
    if ('update' in write) {
      const { key, changes, condition } = write.update;
      const update = updateInput(changes);
      const values = { ...update.values, ...condition.values };
      return {
        Update: {
          TableName,
          Key: key,
          UpdateExpression: update.expression,
          ConditionExpression: condition.expression,
          ...nonEmpty('ExpressionAttributeNames', { ...update.names, ...condition.names }),
          ...nonEmpty('ExpressionAttributeValues', values),
          ...onFailure,
        },
      };
    }
    if ('delete' in write) {
      const { key, condition } = write.delete;
      return {
        Delete: { TableName, Key: key, ...(condition ? { ...conditionInput(condition), ...onFailure } : {}) },
      };
    }
    return {
      ConditionCheck: {
        TableName,
        Key: write.check.key,
        ...conditionInput(write.check.condition),
        ...onFailure,
      },
    };
  });
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
    return { outcome: 'written' };
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    return {
      outcome: 'cancelled',
      reasons: (error.CancellationReasons ?? []).map((reason) => ({
        code: reason.Code ?? 'None',
        current: reason.Item ? recordOf(unmarshall(reason.Item as Record<string, never>)) : undefined,
      })),
    };
  }
}
