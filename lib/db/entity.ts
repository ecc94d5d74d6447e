// One item type of the table: how its record becomes an item (key, index keys, type) and back.
// Every repo declares its item types with `entity` and reads and writes only through lib/db/items.ts.
import type { IndexKeys, ItemKey } from './keys.ts';

export interface Entity<R> {
  /** The item's `type` attribute. */
  type: string;
  keyOf(record: R): ItemKey;
  /** Index keys written with the item; tenant-owned items get tenant-scoped ones (lib/db/keys.ts). */
  indexKeysOf?(record: R): IndexKeys;
  /**
   * The members its item holds, where that is fewer than the record's (what the rest of the record
   * implies is not written: an item is paid per started KB at each write), and the record they give back.
   */
  storedOf?(record: R): Record<string, unknown>;
  restoredOf?(stored: Record<string, unknown>): Record<string, unknown>;
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
    ...(definition.storedOf ? definition.storedOf(record) : record),
  };
}

/** An item as a domain record: without the table's own attributes (keys, index keys, item type). */
export function recordOf<R>(item: Record<string, unknown>): R;
export function recordOf<R>(item: Record<string, unknown> | undefined): R | undefined;
export function recordOf<R>(item: Record<string, unknown> | undefined): R | undefined {
  if (!item) return undefined;
  return Object.fromEntries(Object.entries(item).filter(([name]) => !TABLE_ATTRIBUTES.has(name))) as R;
}

/** An item of `definition` as its domain record: `recordOf`, restored whole where the entity stores less. */
export function fromItem<R>(definition: Entity<R>, item: Record<string, unknown>): R;
export function fromItem<R>(definition: Entity<R>, item: Record<string, unknown> | undefined): R | undefined;
export function fromItem<R>(definition: Entity<R>, item: Record<string, unknown> | undefined): R | undefined {
  const record = recordOf<Record<string, unknown>>(item);
  if (!record || !definition.restoredOf) return record as R | undefined;
  return definition.restoredOf(record) as R;
}
