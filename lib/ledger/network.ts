// Which ledger each environment talks to: sandbox → testnet, production → the public network, both
// overridable by config (the local stack points sandbox at its local ledger). One Horizon client per
// environment, created on first use and kept for the life of the process.
import { Horizon } from '@stellar/stellar-sdk';
import { config } from '../config.ts';
import type { Environment } from '../tenant.ts';
import { horizonUrlOf } from './horizon-json.ts';

export interface LedgerNetwork {
  environment: Environment;
  horizonUrl: string;
  networkPassphrase: string;
  server: Horizon.Server;
}

const networks = new Map<Environment, LedgerNetwork>();

function settings(environment: Environment): { horizonUrl: string; networkPassphrase: string } {
  const c = config();
  const networkPassphrase =
    environment === 'production' ? c.NETWORK_PASSPHRASE_PRODUCTION : c.NETWORK_PASSPHRASE_SANDBOX;
  return { horizonUrl: horizonUrlOf(environment), networkPassphrase };
}

function createNetwork(environment: Environment): LedgerNetwork {
  const { horizonUrl, networkPassphrase } = settings(environment);
  const server = new Horizon.Server(horizonUrl, { allowHttp: new URL(horizonUrl).protocol === 'http:' });
  // Every Horizon request is bounded, submissions included (the SDK's own submission timeout is 60 s):
  // a submission that times out is looked up by hash, never assumed lost.
  const timeoutMs = config().LEDGER_TIMEOUT_MS;
  server.httpClient.interceptors.request.use((request) => ({
    ...request,
    timeout: request.timeout ? Math.min(request.timeout, timeoutMs) : timeoutMs,
  }));
  return { environment, horizonUrl, networkPassphrase, server };
}

export function ledgerNetwork(environment: Environment): LedgerNetwork {
  let network = networks.get(environment);
  if (!network) {
    network = createNetwork(environment);
    networks.set(environment, network);
  }
  return network;
}
