// What a provider says of a record's instruction, applied as the record's event: apart from the ramp's
// execution (execution.ts), so that the provider-notification function, which only applies reports,
// bundles no ledger client and keeps the time budget of a function that never waits on the ledger.
import type { InstructionState } from '../../providers/contract.ts';
import type { Tenant } from '../../tenant.ts';
import { type Applied, applyEvent, type RecordEvent } from '../lifecycle/apply.ts';
import type { EventType } from '../lifecycle/machine.ts';
import type { TransactionRecord } from '../repo.ts';

/** The event a provider's report of the record's instruction is. */
const providerEvent = (state: InstructionState, source: RecordEvent['source']): RecordEvent => ({
  type: `provider_${state.status}` as EventType,
  facts: { externalReference: state.providerReference, providerStatus: state.status },
  reason: state.reason,
  source,
});

/**
 * Applies what the provider says of a record's instruction (a notification, its answer to one, or a
 * read), in whatever order and at whatever moment reports come: the table decides.
 */
export const applyProviderState = (
  tenant: Tenant,
  record: TransactionRecord,
  state: InstructionState,
  now: Date,
  source: RecordEvent['source'] = 'notification',
): Promise<Applied> => applyEvent(tenant, record, providerEvent(state, source), now);
