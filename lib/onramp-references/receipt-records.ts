// Provider on-ramp receipts as the platform keeps them (lib/db/keys.ts providerKeys.receipt): one item
// per connector and receipt id, written once, the first time the receipt is reported, saying what was
// decided: `credited` (with the tenant's transaction record, written in the same transaction) or `held`
// (an unknown or inactive reference, or one it cannot be paid on) for platform operations, who resolve
// it (lib/admin/receipts.ts). A receipt reported again finds its item and changes nothing.
import { absent, holds } from '../db/conditions.ts';
import { entity } from '../db/entity.ts';
import { createIfAbsent, getRecord, readAllPages, type TransactionWrite, updateIf } from '../db/items.ts';
import { providerKeys } from '../db/keys.ts';
import { decide } from '../payments/lifecycle/machine.ts';
import type { Receipt } from '../providers/contract.ts';
import type { Environment } from '../tenant.ts';
import { type ReceiptEvent, receiptLifecycle } from './receipt-lifecycle.ts';

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

/**
 * The write that moves a receipt by `event` from the state it was read in, as its lifecycle table says
 * (receipt-lifecycle.ts), conditioned on that state: a receipt resolved meanwhile is not moved again.
 */
function receiptChanges(item: ReceiptItem, event: ReceiptEvent, set: Partial<ReceiptItem>, now: Date) {
  const move = decide(receiptLifecycle, item.status, event);
  if (!move) throw new ReceiptNotMovable(item, event);
  return {
    key: providerKeys.receipt(item.environment, item.connectorId, item.receiptId),
    changes: { set: { ...set, status: move.to, updatedAt: now.toISOString() } },
    condition: holds({ status: item.status }),
  };
}

/** A receipt whose state its lifecycle does not let `event` move (resolved before, or credited). */
export class ReceiptNotMovable extends Error {
  override name = 'ReceiptNotMovable';
  constructor(item: ReceiptItem, event: ReceiptEvent) {
    super(`Receipt ${item.receiptId} is ${item.status}: ${event} cannot move it`);
  }
}

/** A held receipt resolved, once. */
export const resolveReceiptItem = (
  item: ReceiptItem,
  event: ReceiptEvent,
  set: Partial<ReceiptItem>,
  now: Date,
) => {
  const { key, changes, condition } = receiptChanges(item, event, set, now);
  return updateIf<ReceiptItem>(key, changes, condition);
};

/** The same move as one write of a transaction (paid: with the record it makes). */
export const receiptMove = (
  item: ReceiptItem,
  event: ReceiptEvent,
  set: Partial<ReceiptItem>,
  now: Date,
): TransactionWrite => ({ update: receiptChanges(item, event, set, now) });
