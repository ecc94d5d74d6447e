// Provider on-ramp receipts (docs/decisions/provider-onramp-receipts.md): the provider's signed `receipt`
// notification says a customer paid into a reference. The signature and the receipt id decide, never a guess:
// the reference's binding (written when the provider issued it for one tenant) names the tenant, the tenant's
// reference names the wallet, and the receipt id names the one record and the one ledger payment. A receipt
// on an unknown or inactive reference, for a customer the provider rejected, or one that cannot be paid
// (another currency, nothing left after the fee, outside the connector's limits) is held for platform
// operations (lib/admin/receipts.ts), never lost and never paid elsewhere.
import { customerStanding } from '../customers/standing.ts';
import { logger } from '../log.ts';
import { providerOnrampRecord, recordReceipt, reserveReceiptUse } from '../payments/ramps/provider-onramp.ts';
import { releaseRampUse } from '../payments/ramps/usage.ts';
import type { Receipt } from '../providers/contract.ts';
import { findBinding } from '../providers/service.ts';
import type { Environment, Tenant } from '../tenant.ts';
import { findReceiptItem, holdReceipt, type ReceiptItem, receiptTaken } from './receipt-records.ts';
import { findReference, type ReferenceRecord } from './repo.ts';

type Decision = { pay: ReferenceRecord } | { hold: string; associationId: string | null };

/**
 * Where a receipt on `reference` goes now. A customer the provider rejected is paid nothing, whether or
 * not the rejection has deactivated the reference yet (lib/customers/standing.ts).
 */
async function decide(environment: Environment, connectorId: string, reference: string): Promise<Decision> {
  const binding = await findBinding(environment, connectorId, 'REFERENCE', reference);
  const record =
    binding && (await findReference({ environment, associationId: binding.associationId }, reference));
  if (!binding || !record) return { hold: 'no such reference', associationId: null };
  const { associationId, customerId } = record;
  const standing = await customerStanding({ environment, associationId }, connectorId, customerId);
  if (standing !== 'VERIFIED' && standing !== 'PENDING')
    return { hold: `the customer ${customerId} is ${standing ?? 'not registered'}`, associationId };
  if (!record.isActive) return { hold: 'the reference is inactive', associationId };
  return { pay: record };
}

/**
 * Credits the receipt on `reference` (its record and the receipt's item, together), or says why not:
 * `taken` when the receipt was decided before, else why it must be held. Its amount is reserved against
 * the connector's limits first (`reviewed`: platform operations pay a receipt they held, unchecked).
 */
export async function creditReceipt(
  reference: ReferenceRecord,
  item: ReceiptItem,
  now: Date,
  write: (item: ReceiptItem) => ReturnType<typeof receiptTaken> = receiptTaken,
  limits: 'checked' | 'reviewed' = 'checked',
): Promise<'credited' | 'taken' | { held: string }> {
  const tenant: Tenant = { environment: reference.environment, associationId: reference.associationId };
  const record = await providerOnrampRecord(tenant, item.connectorId, item, reference, now);
  if ('held' in record) return record;
  const reserved = await reserveReceiptUse(tenant, record, now, limits);
  if (reserved !== 'reserved') return reserved;
  const credited = { ...item, status: 'credited' as const, associationId: tenant.associationId };
  const taken = write({ ...credited, transactionRecordId: record.transactionRecordId });
  if (await recordReceipt(record, taken)) return 'credited';
  // Decided meanwhile: its use stays only if a copy of it paid it.
  const decided = await findReceiptItem(item.environment, item.connectorId, item.receiptId);
  if (decided?.status !== 'credited')
    await releaseRampUse(tenant, item.connectorId, record.transactionRecordId);
  return 'taken';
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
  // The tenant whose reference it arrived on, when it is one of ours.
  const associationId = 'pay' in decision ? decision.pay.associationId : decision.associationId;
  await holdReceipt({ ...item, reason, associationId });
  logger.warn('Provider receipt held for platform operations', {
    connectorId,
    receiptId: receipt.receiptId,
    reason,
  });
}
