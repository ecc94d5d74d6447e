// One item type of the table: how its record becomes an item (key, index keys, type) and back.
// Every repo declares its item types with `entity` and reads and writes only through lib/db/items.ts.
import type { IndexKeys, ItemKey } from './keys.ts';

export interface Entity<R> {
  /** The item's `type` attribute. */
  type: string;
  keyOf(record: R): ItemKey;
  /** Index keys written with the item; tenant-owned items get tenant-scoped ones (lib/db/keys.ts). */
  indexKeysOf?(record: R): IndexKeys;
}

export const entity = <R>(definition: Entity<R>): Entity<R> => definition;

/** The table attributes that are not part of any record. */
const TABLE_ATTRIBUTES = new Set([
  'pk',
  'sk',
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'pendingPk',
  'pendingSk',
  ...[1, 2, 3, 4].flatMap((n) => [`list${n}pk`, `list${n}sk`]),
  'type',
]);

export function itemOf<R>(definition: Entity<R>, record: R): Record<string, unknown> {
  return {
    ...definition.keyOf(record),
    ...definition.indexKeysOf?.(record),
    type: definition.type,
    ...(record as Record<string, unknown>),
  };
}

/** An item as a domain record: without the table's own attributes (keys, index keys, item type). */
export function recordOf<R>(item: Record<string, unknown>): R;
export function recordOf<R>(item: Record<string, unknown> | undefined): R | undefined;
export function recordOf<R>(item: Record<string, unknown> | undefined): R | undefined {
  if (!item) return undefined;
  return Object.fromEntries(Object.entries(item).filter(([name]) => !TABLE_ATTRIBUTES.has(name))) as R;
}
