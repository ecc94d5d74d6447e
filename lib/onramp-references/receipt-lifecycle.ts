// A provider receipt's item (receipt-records.ts) as a lifecycle table (lib/payments/lifecycle/machine.ts):
// written `credited` (its transaction record written with it) or `held` when it arrives, and a held one
// resolved once by platform operations: paid to a reference they name, or returned to the payer.
import type { Lifecycle } from '../payments/lifecycle/machine.ts';

export type ReceiptState = 'held' | 'credited' | 'resolved';
export type ReceiptEvent = 'operations_paid' | 'operations_returned';

export const receiptLifecycle: Lifecycle<ReceiptState, ReceiptEvent> = {
  kind: 'provider receipt',
  initial: 'held',
  events: ['operations_paid', 'operations_returned'],
  states: {
    held: { status: 'held', means: 'arrived and not paid: for platform operations to resolve' },
    credited: {
      status: 'credited',
      final: true,
      means: 'its provider on-ramp record pays the wallet (written with it, or by operations)',
    },
    resolved: { status: 'resolved', final: true, means: 'returned to the payer by the provider' },
  },
  moves: {
    held: {
      operations_paid: { to: 'credited' },
      operations_returned: { to: 'resolved' },
    },
  },
};
