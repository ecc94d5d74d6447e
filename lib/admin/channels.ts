// The channel account pool (lib/ledger/channels.ts) for the platform team: `admin channels open` makes
// the first `count` channels' keys and opens their accounts on the environment's ledger from the funding
// account; running it again opens only what is missing. The local stack's ledgers hold the pool from
// their genesis. LEDGER_CHANNELS tells the functions how many of them to lease.
import { createHash } from 'node:crypto';
import type { Environment } from '../http/types.ts';
import { channelPool, ensureChannelKeys } from '../ledger/channels.ts';
import { openPlatformAccounts } from '../ledger/operations.ts';

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
  const accounts = channels.map((channel) => channel.publicKey);
  // One intent per set of accounts: a retry of the same command resumes it rather than building anew.
  const digest = createHash('sha256').update(accounts.join(',')).digest('hex').slice(0, 32);
  const outcome = await openPlatformAccounts({
    environment,
    intentId: `channels-open:${digest}`,
    accounts,
    startingBalance: CHANNEL_STARTING_XLM,
  });
  if (outcome.status !== 'succeeded') {
    throw new Error(`Opening the channel accounts is ${outcome.status}: ${outcome.failureReason}`);
  }
  const leases = new Map((await channelPool(environment)).map((c) => [c.publicKey, c.holder ?? null]));
  return {
    environment,
    channels: channels.map(({ index, publicKey }) => ({
      index,
      publicKey,
      leasedBy: leases.get(publicKey) ?? null,
    })),
    openedBy: outcome.hash,
  };
}
