// The channel account pool (lib/ledger/channels.ts) for the platform team: `admin channels open` makes
// the first `count` channels' keys and opens their accounts on the environment's ledger from the funding
// account, 100 a transaction (a transaction's most operations), one after another (the funding account is
// each one's sequence source); running it again opens only what is missing. The local stack's ledgers hold
// the pool from their genesis. LEDGER_CHANNELS tells the functions how many of them to lease.
import { MAX_LEDGER_CHANNELS } from '../config.ts';
import { channelPool, ensureChannelKeys } from '../ledger/channels.ts';
import type { Environment } from '../tenant.ts';
import { OpeningNotSettled, openAccountsOnce } from './platform-openings.ts';

/** A channel needs only its reserve (1 XLM): the funding account fee-bumps what is built on it. */
export const CHANNEL_STARTING_XLM = '2';

export interface ChannelPoolReport {
  environment: Environment;
  channels: { index: number; publicKey: string; leasedBy: string | null }[];
  /** The transactions that opened the missing accounts, one per 100 channels (none when none was missing). */
  openedBy: string[];
}

/** Accounts one transaction opens: a Stellar transaction holds at most 100 operations. */
const OPENED_PER_TRANSACTION = 100;
/**
 * No further transaction is started after this: with one opening's own budget and a last ledger request
 * (20 + 10 s, platform-openings.ts) the ledger admin function still answers inside its 60 s timeout; the
 * operator runs the command again for the rest.
 */
const OPENINGS_STARTED_WITHIN_MS = 25_000;

export async function openChannelPool(environment: Environment, count: number): Promise<ChannelPoolReport> {
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_LEDGER_CHANNELS) {
    throw new RangeError(`--count must be a whole number from 1 to ${MAX_LEDGER_CHANNELS}`);
  }
  const started = Date.now();
  const channels = await ensureChannelKeys(environment, count);
  const openedBy: string[] = [];
  for (let first = 0; first < channels.length; first += OPENED_PER_TRANSACTION) {
    if (Date.now() - started > OPENINGS_STARTED_WITHIN_MS) {
      throw new OpeningNotSettled(
        `Opened the channels up to #${first - 1} of ${count}: run the same command again to open the rest.`,
      );
    }
    const batch = channels.slice(first, first + OPENED_PER_TRANSACTION).map((channel) => channel.publicKey);
    const hash = await openAccountsOnce(environment, 'channels', batch, CHANNEL_STARTING_XLM);
    if (hash) openedBy.push(hash);
  }
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
