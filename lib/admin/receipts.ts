// Provider on-ramp receipts held for platform operations (docs/decisions/provider-onramp-receipts.md): a
// customer paid into a reference that was unknown or inactive (or the receipt could not be paid: another
// currency, nothing left after the fee). Held receipts are listed per connector and resolved once, one of two
// ways: paid to an active reference the operator names (the reference's own tenant and wallet: as a receipt
// on it would be), or recorded as returned to the customer by the provider (nothing moves on the ledger).
import { findConnector } from '../connectors/repo.ts';
import {
  connectorReceipts,
  findReceiptItem,
  type ReceiptItem,
  receiptMove,
  resolveReceiptItem,
} from '../onramp-references/receipt-records.ts';
import { creditReceipt } from '../onramp-references/receipts.ts';
import { findReference } from '../onramp-references/repo.ts';
import { findBinding } from '../providers/service.ts';
import type { Environment, Tenant } from '../tenant.ts';
import { AdminRefusal } from './refusal.ts';

export async function listHeldReceipts(
  environment: Environment,
  connectorId: string,
): Promise<ReceiptItem[]> {
  if (!(await findConnector(environment, connectorId)))
    throw new AdminRefusal(`No connector ${connectorId} in ${environment}`);
  return (await connectorReceipts(environment, connectorId)).filter((r) => r.status === 'held');
}

export type Resolution = { reference: string } | { returned: string };

/**
 * Resolves a held receipt for the tenant the operator names: a receipt that arrived on another tenant's
 * reference is refused, and so is a reference of another tenant to pay it to. A receipt on no reference
 * of ours (associationId null) may go to the named tenant's reference.
 */
export async function resolveReceipt(
  tenant: Tenant,
  connectorId: string,
  receiptId: string,
  resolution: Resolution,
  now = new Date(),
): Promise<ReceiptItem> {
  const { environment, associationId } = tenant;
  const item = await findReceiptItem(environment, connectorId, receiptId);
  if (!item) throw new AdminRefusal(`No receipt ${receiptId} of ${connectorId} in ${environment}`);
  if (item.status !== 'held')
    throw new AdminRefusal(
      `Receipt ${receiptId} of ${connectorId} is ${item.status}, not held: only a held receipt is resolved${item.resolution ? ` (${item.resolution})` : ''}`,
    );
  if (item.associationId !== null && item.associationId !== associationId)
    throw new AdminRefusal(
      `Receipt ${receiptId} arrived on a reference of another association than ${associationId}`,
    );
  if ('returned' in resolution) {
    const written = await resolveReceiptItem(
      item,
      'operations_returned',
      { resolution: `returned: ${resolution.returned}` },
      now,
    );
    if (written.outcome !== 'written') throw new AdminRefusal(`Receipt ${receiptId} was resolved meanwhile`);
    return written.record;
  }
  const binding = await findBinding(environment, connectorId, 'REFERENCE', resolution.reference);
  const reference =
    binding?.associationId === associationId ? await findReference(tenant, resolution.reference) : undefined;
  if (!reference?.isActive)
    throw new AdminRefusal(
      `No active reference ${resolution.reference} of ${connectorId} of association ${associationId}`,
    );
  // Paid as reviewed: the connector's limits are not checked again (the receipt counts toward them).
  const outcome = await creditReceipt(
    reference,
    item,
    now,
    (credited) =>
      receiptMove(
        item,
        'operations_paid',
        {
          associationId: credited.associationId,
          transactionRecordId: credited.transactionRecordId,
          resolution: `paid to reference ${resolution.reference}`,
        },
        now,
      ),
    'reviewed',
  );
  if (outcome === 'taken') throw new AdminRefusal(`Receipt ${receiptId} was resolved meanwhile`);
  if (outcome !== 'credited') throw new AdminRefusal(`Receipt ${receiptId} cannot be paid: ${outcome.held}`);
  return (await findReceiptItem(environment, connectorId, receiptId)) as ReceiptItem;
}
