// The channel account pool (lib/ledger/channels.ts) for the platform team: `admin channels open` makes
// the first `count` channels' keys and opens their accounts on the environment's ledger from the funding
// account; running it again opens only what is missing. The local stack's ledgers hold the pool from
// their genesis. LEDGER_CHANNELS tells the functions how many of them to lease.
import type { Environment } from '../http/types.ts';
import { channelPool, ensureChannelKeys } from '../ledger/channels.ts';
import { openAccountsOnce } from './platform-openings.ts';

/** A channel needs only its reserve (1 XLM): the funding account fee-bumps what is built on it. */
export const CHANNEL_STARTING_XLM = '2';

export interface ChannelPoolReport {
  environment: Environment;
  channels: { index: number; publicKey: string; leasedBy: string | null }[];
  /** The transaction that opened the missing accounts (null when none was missing). */
  openedBy: string | null;
}

export async function openChannelPool(environment: Environment, count: number): Promise<ChannelPoolReport> {
  if (!Number.isSafeInteger(count) || count < 1 || count > 100) {
    throw new RangeError('--count must be a whole number from 1 to 100');
  }
  const channels = await ensureChannelKeys(environment, count);
  const openedBy = await openAccountsOnce(
    environment,
    'channels',
    channels.map((channel) => channel.publicKey),
    CHANNEL_STARTING_XLM,
  );
  const leases = new Map((await channelPool(environment)).map((c) => [c.publicKey, c.holder ?? null]));
  return {
    environment,
    channels: channels.map(({ index, publicKey }) => ({
      index,
      publicKey,
      leasedBy: leases.get(publicKey) ?? null,
    })),
    openedBy,
  };
}
