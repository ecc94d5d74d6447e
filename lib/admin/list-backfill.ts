// The list indexes' backfill, for a stage that holds records written before the list indexes: one pass over
// the table that gives each transaction, wallet, payment destination and connector its list index keys
// (as its entity writes them now) and each transaction its wallet entries. Idempotent: run it again and
// it writes the same keys. A record moved meanwhile keeps the keys its move set (the update holds only
// while the record's status is the one it was read with).
import { paymentDestinationEntity } from '../beneficiaries/repo.ts';
import { connectorEntity } from '../connectors/repo.ts';
import { holds } from '../db/conditions.ts';
import type { Entity } from '../db/entity.ts';
import { putAll, updateIf } from '../db/items.ts';
import type { ItemKey } from '../db/keys.ts';
import { scanByType } from '../db/scan-by-type.ts';
import {
  transactionEntity,
  transactionOf,
  transactionWalletEntity,
  walletEntriesOf,
} from '../payments/repo.ts';
import { walletEntity } from '../wallets/repo.ts';

const listed: Entity<never>[] = [
  transactionEntity,
  walletEntity,
  paymentDestinationEntity,
  connectorEntity,
] as never;

/** Every listed record's list keys set; how many of each item type were given them. */
export async function backfillListKeys(extra: Entity<never>[] = []): Promise<Record<string, number>> {
  const kinds = [...listed, ...extra];
  const counts: Record<string, number> = {};
  for await (const item of scanByType(kinds.map((e) => e.type))) {
    const definition = kinds.find((e) => e.type === item.type) as Entity<Record<string, unknown>>;
    const keys = Object.fromEntries(
      Object.entries(definition.indexKeysOf?.(item) ?? {}).filter(([name]) => name.startsWith('list')),
    );
    const transaction = (definition.keyOf as unknown) === transactionEntity.keyOf;
    if (transaction) await putAll(transactionWalletEntity, walletEntriesOf(transactionOf(item)));
    await updateIf(
      { pk: item.pk, sk: item.sk } as ItemKey,
      { set: keys },
      holds(transaction ? { status: item.status } : {}),
    );
    counts[String(item.type)] = (counts[String(item.type)] ?? 0) + 1;
  }
  return counts;
}
