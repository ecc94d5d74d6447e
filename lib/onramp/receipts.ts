// Provider on-ramp receipts (issue #22 §3): the provider's signed `receipt` notification says a customer
// paid into a reference. The signature and the receipt id decide, never a guess: the reference's binding
// (written when the provider issued it for one tenant) names the tenant, the tenant's reference names the
// wallet, and the receipt id names the one record and the one ledger payment. A receipt on an unknown
// or inactive reference, or one that cannot be paid (another currency, nothing left after the fee), is
// held for platform operations (lib/admin/receipts.ts), never lost and never paid elsewhere.
import type { Environment, Tenant } from '../http/types.ts';
import { logger } from '../log.ts';
import { providerOnrampRecord, recordReceipt } from '../payments/provider-onramp.ts';
import type { Receipt } from '../providers/contract.ts';
import { findBinding } from '../providers/service.ts';
import { findReceiptItem, holdReceipt, type ReceiptItem, receiptTaken } from './receipt-records.ts';
import { findReference, type ReferenceRecord } from './repo.ts';

type Decision = { pay: ReferenceRecord } | { hold: string; associationId: string | null };

/** Where a receipt on `reference` goes now. */
async function decide(environment: Environment, connectorId: string, reference: string): Promise<Decision> {
  const binding = await findBinding(environment, connectorId, 'REFERENCE', reference);
  const record =
    binding && (await findReference({ environment, associationId: binding.associationId }, reference));
  if (!binding || !record) return { hold: 'no such reference', associationId: null };
  if (!record.isActive) return { hold: 'the reference is inactive', associationId: record.associationId };
  return { pay: record };
}

/**
 * Credits the receipt on `reference` (its record and the receipt's item, together), or says why not:
 * `taken` when the receipt was decided before, else why it must be held.
 */
export async function creditReceipt(
  reference: ReferenceRecord,
  item: ReceiptItem,
  now: Date,
  write: (item: ReceiptItem) => ReturnType<typeof receiptTaken> = receiptTaken,
): Promise<'credited' | 'taken' | { held: string }> {
  const tenant: Tenant = { environment: reference.environment, associationId: reference.associationId };
  const record = await providerOnrampRecord(tenant, item.connectorId, item, reference, now);
  if ('held' in record) return record;
  const credited = { ...item, status: 'credited' as const, associationId: tenant.associationId };
  const taken = write({ ...credited, transactionRecordId: record.transactionRecordId });
  return (await recordReceipt(record, taken)) ? 'credited' : 'taken';
}

export async function receiveOnrampReceipt(
  environment: Environment,
  connectorId: string,
  receipt: Receipt,
  now: Date,
): Promise<void> {
  // Decided before (a duplicate, however it was sent): nothing more.
  if (await findReceiptItem(environment, connectorId, receipt.receiptId)) return;
  const at = now.toISOString();
  const item: ReceiptItem = {
    receiptId: receipt.receiptId,
    reference: receipt.reference,
    amount: receipt.amount,
    currency: receipt.currency,
    environment,
    connectorId,
    status: 'held',
    reason: null,
    associationId: null,
    transactionRecordId: null,
    resolution: null,
    receivedAt: at,
    updatedAt: at,
  };
  const decision = await decide(environment, connectorId, receipt.reference);
  const outcome = 'pay' in decision ? await creditReceipt(decision.pay, item, now) : decision;
  if (outcome === 'credited' || outcome === 'taken') return;
  const reason = 'held' in outcome ? outcome.held : outcome.hold;
  await holdReceipt({
    ...item,
    reason,
    associationId: 'associationId' in outcome ? outcome.associationId : null,
  });
  logger.warn('Provider receipt held for platform operations', {
    connectorId,
    receiptId: receipt.receiptId,
    reason,
  });
}
