// On-ramps: the provider collects from the counterparty, then the connector's settlement account pays
// the wallet on the ledger. Once the collection completed the money is the wallet's: the credit is owed,
// and paid until it lands, whatever the provider says later.
import type { Lifecycle } from '../lifecycle/machine.ts';

export type OnrampState = 'initiated' | 'collecting' | 'collected' | 'completed' | 'failed';

const ended = (code: string, reason: string) =>
  ({ to: 'failed', error: { code, reason }, effects: ['count_settled', 'release_limit_use'] }) as const;

/** What the provider's reports do to a collection it holds, before it completed. */
const collectionReports = {
  provider_processing: { to: 'collecting' },
  provider_completed: { to: 'collected' },
  provider_failed: ended('COLLECTION_FAILED', 'The counterparty’s payment was declined or expired.'),
  provider_returned: ended('COLLECTION_RETURNED', 'The collected payment was returned to the counterparty.'),
} as const;

export const onrampLifecycle: Lifecycle<OnrampState> = {
  kind: 'onramp',
  initial: 'initiated',
  states: {
    initiated: { status: 'initiated', means: 'accepted; the collection is being instructed' },
    collecting: { status: 'processing', means: 'the provider is collecting from the counterparty' },
    collected: {
      status: 'processing',
      owed: true,
      means: 'the collection completed: the wallet is owed its credit',
    },
    completed: { status: 'completed', final: true, means: 'the wallet was credited' },
    failed: { status: 'failed', final: true, means: 'the collection failed or was returned: nothing moved' },
  },
  moves: {
    initiated: {
      provider_pending: { to: 'collecting' },
      provider_rejected: ended('COLLECTION_REJECTED', 'The provider refused the collection.'),
      ...collectionReports,
    },
    collecting: collectionReports,
    collected: {
      owed_paid: { to: 'completed', effects: ['count_settled'] },
      owed_refused: { to: 'collected' },
    },
  },
};
