// Off-ramps: the wallet pays the connector's settlement account on the ledger (the leg), then the
// provider pays the beneficiary out (the payout). Once the leg has landed, money can only end at the
// beneficiary or back in the wallet: every failure after it owes a refund, paid until it lands.
import type { Lifecycle, Move } from '../lifecycle/machine.ts';

export type OfframpState =
  | 'initiated'
  | 'leg_landed'
  | 'paying_out'
  | 'completed'
  | 'failed'
  | 'refund_due'
  | 'refund_completed';

const refund = (code: string, reason: string, settles = true): Move<OfframpState> => ({
  to: 'refund_due',
  error: { code, reason },
  ...(settles ? { effects: ['count_settled'] as const } : {}),
});

/** What the provider's reports do to a payout it holds, before it completed. */
const payoutReports = {
  provider_completed: { to: 'completed', effects: ['count_settled'] },
  provider_failed: refund('PROVIDER_FAILED', 'The provider failed the payout.'),
  // A return is a payout that completed and came back, whether or not its `completed` came first.
  provider_returned: refund('PAYOUT_RETURNED', 'The payout was returned.'),
} as const;

export const offrampLifecycle: Lifecycle<OfframpState> = {
  kind: 'offramp',
  initial: 'initiated',
  states: {
    initiated: { status: 'initiated', means: 'accepted; the wallet’s ledger leg is owed' },
    leg_landed: { status: 'processing', means: 'the leg landed; the payout is being instructed' },
    paying_out: { status: 'processing', means: 'the provider holds the payout' },
    completed: { status: 'completed', resting: true, means: 'the provider paid the beneficiary out' },
    failed: { status: 'failed', final: true, means: 'the ledger refused the leg: nothing moved' },
    refund_due: {
      status: 'failed',
      owed: true,
      means: 'the payout failed, was refused or returned after the leg: the wallet is owed its money',
    },
    refund_completed: { status: 'refund_completed', final: true, means: 'the wallet was paid back' },
  },
  moves: {
    initiated: {
      ledger_landed: { to: 'leg_landed' },
      ledger_refused: { to: 'failed', effects: ['count_settled', 'release_limit_use'] },
    },
    leg_landed: {
      provider_pending: { to: 'paying_out' },
      provider_processing: { to: 'paying_out' },
      provider_rejected: refund('PROVIDER_REJECTED', 'The provider refused the payout.'),
      ...payoutReports,
    },
    paying_out: {
      provider_processing: { to: 'paying_out' },
      ...payoutReports,
    },
    completed: {
      provider_returned: refund('PAYOUT_RETURNED', 'The payout was returned.', false),
      // The provider contract's `failed` says nothing was paid: after `completed`, as Stripe treats a
      // payout that fails after it was paid, the money came back, and the wallet is refunded.
      provider_failed: refund(
        'PAYOUT_FAILED_AFTER_COMPLETION',
        'The provider failed the payout after it completed.',
        false,
      ),
    },
    refund_due: {
      owed_paid: { to: 'refund_completed', effects: ['release_limit_use'] },
      owed_refused: { to: 'refund_due' },
    },
  },
};
