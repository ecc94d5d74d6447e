// Provider on-ramps: a customer paid the provider against a reference, and the receipt made the record.
// The money has arrived: the wallet's credit is owed from the start, and paid until it lands.
import type { Lifecycle } from '../lifecycle/machine.ts';

export type ProviderOnrampState = 'initiated' | 'completed';

export const providerOnrampLifecycle: Lifecycle<ProviderOnrampState> = {
  kind: 'provider_onramp',
  initial: 'initiated',
  states: {
    initiated: {
      status: 'initiated',
      owed: true,
      means: 'the receipt arrived: the wallet is owed its credit',
    },
    completed: { status: 'completed', final: true, means: 'the wallet was credited' },
  },
  moves: {
    initiated: {
      owed_paid: { to: 'completed', effects: ['count_settled'] },
      owed_refused: { to: 'initiated' },
    },
  },
};
