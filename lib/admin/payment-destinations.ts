// Payment destination verification by platform operations: the decision that ends a BANK or
// MOBILE_MONEY destination's PENDING status (found by id alone, in whichever tenant holds it).
import type { PaymentDestinationRecord } from '../beneficiaries/repo.ts';
import { decideDestinationVerification } from '../beneficiaries/verification.ts';
import { tenantOf } from '../db/keys.ts';
import { findByPlatformId } from '../db/platform-index.ts';
import { AdminRefusal } from './refusal.ts';

export async function reviewPaymentDestination(
  destinationId: string,
  decision: 'APPROVED' | 'REJECTED',
  now = new Date(),
) {
  const found = await findByPlatformId<PaymentDestinationRecord>('PAYDEST', destinationId);
  if (!found) throw new AdminRefusal(`No payment destination ${destinationId}.`);
  // A second decision is refused with a Problem: the CLI prints its detail.
  const reviewed = await decideDestinationVerification(tenantOf(found), destinationId, decision, now);
  return {
    destinationId: reviewed.id,
    beneficiaryId: reviewed.beneficiaryId,
    method: reviewed.method,
    verificationStatus: reviewed.verificationStatus,
  };
}
