// Which table governs a transaction record, and the state it is in. Records written before the state
// was kept (no `state` member) have theirs read from the members that used to say it.

import { offrampLifecycle } from '../ramps/offramp-lifecycle.ts';
import { onrampLifecycle } from '../ramps/onramp-lifecycle.ts';
import { providerOnrampLifecycle } from '../ramps/provider-onramp-lifecycle.ts';
import type { TransactionRecord } from '../repo.ts';
import type { Lifecycle } from './machine.ts';
import { paymentLifecycle } from './payment.ts';

export const LIFECYCLES: readonly Lifecycle<string>[] = [
  paymentLifecycle,
  offrampLifecycle,
  onrampLifecycle,
  providerOnrampLifecycle,
] as Lifecycle<string>[];

export function lifecycleOf(record: Pick<TransactionRecord, 'transactionType'>): Lifecycle<string> {
  switch (record.transactionType) {
    case 'offramp':
      return offrampLifecycle;
    case 'onramp':
      return onrampLifecycle;
    case 'provider_onramp':
      return providerOnrampLifecycle;
    default:
      return paymentLifecycle;
  }
}

/** The state a record written before `state` was kept is in, from its status and the provider's side. */
function legacyState(record: TransactionRecord): string {
  const { status } = record;
  if (record.transactionType === 'offramp') {
    if (status === 'processing') return record.externalReference ? 'paying_out' : 'leg_landed';
    if (status === 'failed') return record.refundDue ? 'refund_due' : 'failed';
    return status;
  }
  if (record.transactionType === 'onramp' && status === 'processing')
    return record.providerStatus === 'completed' ? 'collected' : 'collecting';
  return status;
}

export const stateOf = (record: TransactionRecord): string => record.state ?? legacyState(record);

/** The record's version: every move through a table adds one; records written before it have none. */
export const versionOf = (record: TransactionRecord): number => record.version ?? 0;

export const isOwed = (record: TransactionRecord) =>
  lifecycleOf(record).states[stateOf(record)]?.owed === true;
