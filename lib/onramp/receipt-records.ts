// Provider on-ramp receipts as the platform keeps them (lib/db/keys.ts providerKeys.receipt): one item
// per connector and receipt id, written once, the first time the receipt is reported, saying what was
// decided: `credited` (with the tenant's transaction record, written in the same transaction) or `held`
// (an unknown or inactive reference, or one it cannot be paid on) for platform operations, who resolve
// it (lib/admin/receipts.ts). A receipt reported again finds its item and changes nothing.
import { absent, holds } from '../db/conditions.ts';
import { entity } from '../db/entity.ts';
import { createIfAbsent, getRecord, readAllPages, type TransactionWrite, updateIf } from '../db/items.ts';
import { providerKeys } from '../db/keys.ts';
import type { Environment } from '../http/types.ts';
import type { Receipt } from '../providers/contract.ts';

export interface ReceiptItem extends Receipt {
  environment: Environment;
  connectorId: string;
  status: 'credited' | 'held' | 'resolved';
  /** Why it is held. */
  reason: string | null;
  /** The tenant whose reference it arrived on, when it is one of ours. */
  associationId: string | null;
  transactionRecordId: string | null;
  /** How platform operations resolved a held receipt. */
  resolution: string | null;
  receivedAt: string;
  updatedAt: string;
}

const receiptEntity = entity<ReceiptItem>({
  type: 'providerReceipt',
  keyOf: (r) => providerKeys.receipt(r.environment, r.connectorId, r.receiptId),
});

export const findReceiptItem = (environment: Environment, connectorId: string, receiptId: string) =>
  getRecord<ReceiptItem>(providerKeys.receipt(environment, connectorId, receiptId), { consistent: true });

/** The receipt taken, as one write of the transaction that writes its record. */
export const receiptTaken = (item: ReceiptItem): TransactionWrite => ({
  put: { entity: receiptEntity as never, record: item, condition: absent },
});

/** Holds the receipt, unless it was taken before. */
export const holdReceipt = (item: ReceiptItem) => createIfAbsent(receiptEntity, item);

/** Every receipt of a connector in an environment (platform operations: held ones first of interest). */
export const connectorReceipts = (environment: Environment, connectorId: string) =>
  readAllPages<ReceiptItem>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': providerKeys.partition(environment, connectorId),
      ':prefix': providerKeys.receiptPrefix,
    },
  });

/** A held receipt resolved: moved from held once. */
export const resolveReceiptItem = (item: ReceiptItem, set: Partial<ReceiptItem>, now: Date) =>
  updateIf<ReceiptItem>(
    providerKeys.receipt(item.environment, item.connectorId, item.receiptId),
    { set: { ...set, updatedAt: now.toISOString() } },
    holds({ status: 'held' }),
  );

export const receiptMove = (item: ReceiptItem, set: Partial<ReceiptItem>, now: Date): TransactionWrite => ({
  update: {
    key: providerKeys.receipt(item.environment, item.connectorId, item.receiptId),
    changes: { set: { ...set, updatedAt: now.toISOString() } },
    condition: holds({ status: 'held' }),
  },
});
