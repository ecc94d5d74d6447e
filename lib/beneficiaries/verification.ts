// The verification decision on a payment destination (the sandbox helper and platform operations):
// a module of its own, so the sandbox function does not bundle destination validation.
import { notFound, Problem } from '../http/problem.ts';
import type { Tenant } from '../tenant.ts';
import { toDestinationResource } from './destination-resource.ts';
import { decideVerification, findTenantPaymentDestination } from './repo.ts';

/**
 * The verification decision on a BANK or MOBILE_MONEY destination of the tenant's: PENDING → APPROVED |
 * REJECTED, once. Platform operations find the tenant first (lib/admin/destinations.ts).
 */
export async function decideDestinationVerification(
  tenant: Tenant,
  destinationId: string,
  decision: 'APPROVED' | 'REJECTED',
  now: Date,
) {
  const found = await findTenantPaymentDestination(tenant, destinationId);
  if (!found) throw notFound(`No payment destination ${destinationId}.`);
  if (found.verificationStatus === 'NOT_REQUIRED')
    throw new Problem(409, `A ${found.method} destination needs no verification.`);
  const decided = await decideVerification(found, decision, now);
  if (decided.outcome === 'missing') throw notFound(`No payment destination ${destinationId}.`);
  if (decided.outcome === 'conditionFailed') {
    throw new Problem(
      409,
      `The destination's verification has already ended: it is ${decided.current.verificationStatus}.`,
    );
  }
  return toDestinationResource(decided.record);
}
