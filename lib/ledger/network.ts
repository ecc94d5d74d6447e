// Which ledger each environment talks to: sandbox → testnet, production → the public network, both
// overridable by config (the local stack points sandbox at its local ledger). No Horizon client: every
// request goes over node:http (horizon-json.ts, horizon-submit.ts), so no bundle loads the SDK's Server,
// its HTTP client and its event streams (~50 KiB the submitter and the activator parsed at every cold start).
import { config } from '../config.ts';
import type { Environment } from '../tenant.ts';
import { horizonUrlOf } from './horizon-json.ts';

export interface LedgerNetwork {
  environment: Environment;
  horizonUrl: string;
  networkPassphrase: string;
}

const networks = new Map<Environment, LedgerNetwork>();

function settings(environment: Environment): { horizonUrl: string; networkPassphrase: string } {
  const c = config();
  const networkPassphrase =
    environment === 'production' ? c.NETWORK_PASSPHRASE_PRODUCTION : c.NETWORK_PASSPHRASE_SANDBOX;
  return { horizonUrl: horizonUrlOf(environment), networkPassphrase };
}

function createNetwork(environment: Environment): LedgerNetwork {
  return { environment, ...settings(environment) };
}

export function ledgerNetwork(environment: Environment): LedgerNetwork {
  let network = networks.get(environment);
  if (!network) {
    network = createNetwork(environment);
    networks.set(environment, network);
  }
  return network;
}
