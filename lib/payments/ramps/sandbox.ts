// Sandbox test helpers for ramps (Stripe's test helpers for outbound payments): POST
// /v1/sandbox/transactions/{transactionRecordId}/{complete|fail|return} asks the sandbox provider to
// move the record's instruction; the outcome reaches the record as every provider outcome does, by a
// signed notification, within a moment. Asking for the state it is already in answers it again. 404 for
// production applications and for a record not the caller's; 409 when the instruction cannot move that
// way (not instructed yet, or final otherwise: a failed payout cannot complete; only payouts return).
import { notFound, Problem, serviceUnavailable } from '../../http/problem.ts';
import { ProviderUnavailableError, type TestOutcome } from '../../providers/contract.ts';
import { providerFor } from '../../providers/service.ts';
import type { Tenant } from '../../tenant.ts';
import { findTransaction } from '../repo.ts';

export async function settleRampInstruction(
  tenant: Tenant,
  transactionRecordId: string,
  outcome: TestOutcome,
) {
  if (tenant.environment !== 'sandbox') throw notFound('No such route.');
  const record = await findTransaction(tenant, transactionRecordId, { consistent: true });
  if (!record) throw notFound(`No transaction ${transactionRecordId}.`);
  const conflict = (detail: string) =>
    new Problem(409, detail, {
      errors: [{ field: 'outcome', message: `cannot ${outcome} this record now` }],
    });
  if (!record.ramp) throw conflict('Only off-ramp and on-ramp records have a provider instruction.');
  // The provider contract returns payouts only: a collection the counterparty paid stays collected, and
  // its wallet is credited (lib/payments/ramps/onramp-lifecycle.ts).
  if (outcome === 'return' && record.transactionType !== 'offramp')
    throw conflict('Only an off-ramp’s payout can be returned; a collection completes or fails.');
  if (!record.externalReference)
    throw conflict(
      `The provider has no instruction for this record yet (it is ${record.status}); try again shortly.`,
    );
  const provider = await providerFor(tenant.environment, record.ramp.connectorId);
  let state: Awaited<ReturnType<NonNullable<typeof provider.settleForTest>>>;
  try {
    state = (await provider.settleForTest?.(record.transactionRecordId, outcome)) ?? null;
  } catch (error) {
    if (error instanceof ProviderUnavailableError)
      throw serviceUnavailable('The sandbox provider is unavailable.');
    throw error;
  }
  if (!state) throw conflict(`The provider’s instruction cannot ${outcome} from where it stands.`);
  return {
    transactionRecordId: record.transactionRecordId,
    outcome,
    providerStatus: state.status,
    message: 'Asked of the provider; its notification moves the record within moments.',
  };
}
