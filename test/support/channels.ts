// Tests that start a ledger of their own put the environment's channel accounts in its genesis: every
// wallet and payment transaction is built on one (lib/ledger/channels.ts). The stack's seed created
// their keys in the shared table; leases on it are harmless across ledgers (each has its own sequences).
import type { Environment } from '../../lib/tenant.ts';

export async function channelGenesis(
  environment: Environment = 'sandbox',
): Promise<{ publicKey: string; nativeBalance: string }[]> {
  const { config } = await import('../../lib/config.ts');
  const { ensureChannelKeys } = await import('../../lib/ledger/channels.ts');
  const channels = await ensureChannelKeys(environment, config().LEDGER_CHANNELS);
  return channels.map(({ publicKey }) => ({ publicKey, nativeBalance: '10' }));
}
