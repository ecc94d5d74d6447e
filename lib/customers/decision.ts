// The sandbox's decision on a customer's review (POST /v1/sandbox/customers/{customerId}/connectors/
// {connectorId}/decision): asked of the provider simulator, whose signed notification then decides the
// registration as a real provider's would. A module of its own so the sandbox function does not bundle
// the registration routes' schemas and responses (the identity shapes, libphonenumber and its metadata).
import { notFound, Problem } from '../http/problem.ts';
import { askProvider } from '../providers/service.ts';
import type { Tenant } from '../tenant.ts';
import * as z from '../zod.ts';
import { findCustomer } from './repo.ts';

export const customerDecisionBody = z.strictObject({
  decision: z.enum(['VERIFIED', 'REJECTED'], { message: 'must be VERIFIED or REJECTED' }),
});

/** Sandbox: asks the provider to decide a pending review now; its notification follows in a moment. */
export async function decideCustomerForTest(
  tenant: Tenant,
  connectorId: string,
  customerId: string,
  decision: 'VERIFIED' | 'REJECTED',
) {
  if (tenant.environment !== 'sandbox') throw notFound('No such route.');
  const record = await findCustomer(tenant, connectorId, customerId);
  if (!record) throw notFound(`No customer ${customerId} registered with connector ${connectorId}.`);
  const conflict = () =>
    new Problem(409, `The customer is ${record.status} already.`, {
      errors: [{ field: 'decision', message: `cannot move a ${record.status} customer` }],
    });
  if (record.status !== 'PENDING' && record.status !== decision) throw conflict();
  if (record.status === 'PENDING') {
    const state = await askProvider(tenant.environment, connectorId, async (provider) =>
      provider.decideCustomerForTest?.(
        record.providerReference,
        decision === 'VERIFIED' ? 'verified' : 'rejected',
      ),
    );
    if (!state) throw conflict();
  }
  return {
    customerId,
    connectorId,
    decision,
    message: 'Asked of the provider; its notification decides the registration within moments.',
  };
}
