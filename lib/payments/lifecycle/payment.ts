// P2P payments, swaps and multi-transfers: one ledger transaction, settled by its outcome.
import type { Lifecycle } from './machine.ts';

export type PaymentState = 'initiated' | 'completed' | 'failed';

export const paymentLifecycle: Lifecycle<PaymentState> = {
  kind: 'p2p, swap, p2p_multi',
  initial: 'initiated',
  states: {
    initiated: { status: 'initiated', means: 'accepted; its ledger transaction is owed' },
    completed: { status: 'completed', final: true, means: 'the ledger transaction landed' },
    failed: { status: 'failed', final: true, means: 'the ledger refused it: nothing moved' },
  },
  moves: {
    initiated: {
      ledger_landed: { to: 'completed', effects: ['count_settled'] },
      ledger_refused: { to: 'failed', effects: ['count_settled'] },
    },
  },
};
