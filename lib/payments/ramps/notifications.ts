// What the payments domain does with a provider's verified report on a ramp's instruction.

import type { InstructionState } from '../../providers/contract.ts';
import type { Tenant } from '../../tenant.ts';
import { findTransaction } from '../repo.ts';
import { applyProviderState } from './provider-state.ts';

export async function applyRampNotification(
  tenant: Tenant,
  transactionRecordId: string,
  state: InstructionState,
  now: Date,
): Promise<void> {
  const record = await findTransaction(tenant, transactionRecordId, { consistent: true });
  if (record?.ramp) await applyProviderState(tenant, record, state, now);
}
