// Channel accounts (issue #9 §3, as Stellar's Disbursement Platform runs them): platform accounts whose
// only job is to be the source account, and so the sequence number, of the transactions the gateway
// submits. The wallet (or the funding account) is the source of the operations and signs them; the
// funding account pays the fee with a fee bump. Transactions of different wallets then never wait on one
// sequence number, and one wallet can be in several payments of the same ledger. The pool size is
// configuration (LEDGER_CHANNELS); the local seed and `admin channels` create the accounts.
//
// A channel is leased to one intent at a time by a conditional write on its item: free → held by the
// intent until `leaseMaxTime`, the maxTime of every envelope built under the lease. The intent releases
// it when it settles or moves to another channel. Without a release (the holder crashed, timed out) the
// lease is taken over only once the ledger's latest closed ledger closed after leaseMaxTime: then no
// envelope built under it can land any more. A channel with an envelope in flight is never reused.
//
// An intent stays on its channel for same-sequence replacements (renewLease); it moves only when every
// envelope it built is proven dead (expired or superseded, proofs.ts): the expiry proof covers the move.

import { config } from '../config.ts';
import { holds } from '../db/conditions.ts';
import { entity } from '../db/entity.ts';
import { createIfAbsent, readAllPages, updateIf } from '../db/items.ts';
import { ledgerKeys } from '../db/keys.ts';
import type { Environment } from '../http/types.ts';
import * as metrics from '../metrics.ts';
import { type AccountKeys, newAccountKeys, type SealedSecret } from './custody.ts';
import { latestClosedAt } from './proofs.ts';

export interface ChannelAccount {
  environment: Environment;
  index: number;
  publicKey: string;
  sealedSecret: SealedSecret;
  createdAt: string;
  /** The intent holding the lease; absent when the channel is free. */
  holder?: string;
  /** Epoch seconds: no envelope built under the lease can land in a ledger closed after this. */
  leaseMaxTime?: number;
  /**
   * The sequence number of the last transaction on this channel seen in a closed ledger, and the network
   * it was seen on: a later holder builds above it, whatever a lagging account read says (see landedOn).
   */
  landed?: LandedSequence;
}

/** A channel's sequence number known consumed, on one network (tests run ledgers side by side). */
export interface LandedSequence {
  network: string;
  sequence: string;
}

/**
 * The sequence number to build on: the ledger's, unless a read lagging behind the ledger (a Horizon
 * replica a few ledgers behind) shows one the channel's last holder already saw consumed. Building on
 * that stale number is what once let two intents build the same envelope (issue #18 §0): it can only
 * fail with tx_bad_seq, and an envelope identical to the one that landed would be taken for it.
 */
export function sequenceToBuildOn(
  onLedger: string,
  landed: LandedSequence | undefined,
  network: string,
): string {
  if (!landed || landed.network !== network) return onLedger;
  return BigInt(landed.sequence) > BigInt(onLedger) ? landed.sequence : onLedger;
}

/** A channel as its holder builds on it. */
export type LeasedChannel = Pick<ChannelAccount, 'index' | 'publicKey' | 'sealedSecret' | 'landed'>;

const channelEntity = entity<ChannelAccount>({
  type: 'ledgerChannel',
  keyOf: (channel) => ledgerKeys.channel(channel.environment, channel.index),
});

const conditions = {
  free: { expression: 'attribute_exists(pk) AND attribute_not_exists(holder)' },
  heldBy: (intentId: string) => holds({ holder: intentId }),
  /** Still held as the taker saw it, when its lease had run out by ledger time. */
  heldAsSeen: (channel: ChannelAccount) =>
    holds({ holder: channel.holder, leaseMaxTime: channel.leaseMaxTime }),
};

const leased = ({ index, publicKey, sealedSecret, landed }: ChannelAccount): LeasedChannel => ({
  index,
  publicKey,
  sealedSecret,
  ...(landed ? { landed } : {}),
});

/** The configured pool, in order (strongly consistent: leases change under concurrent workers). */
export async function channelPool(environment: Environment): Promise<ChannelAccount[]> {
  const { pk, skPrefix } = ledgerKeys.channelPool(environment);
  const channels = await readAllPages<ChannelAccount>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
    ConsistentRead: true,
  });
  return channels.filter((channel) => channel.index < config().LEDGER_CHANNELS);
}

/**
 * The keys of the pool's first `count` channels, creating those missing (idempotent). `newKeys` seals
 * them (the custody KEK by default; the bench, which has none, brings its own).
 */
export async function ensureChannelKeys(
  environment: Environment,
  count: number,
  options: { now?: Date; newKeys?: (environment: Environment) => Promise<AccountKeys> } = {},
): Promise<ChannelAccount[]> {
  const now = options.now ?? new Date();
  const channels: ChannelAccount[] = [];
  for (let index = 0; index < count; index++) {
    const { publicKey, sealedSecret } = await (options.newKeys ?? newAccountKeys)(environment);
    const channel = { environment, index, publicKey, sealedSecret, createdAt: now.toISOString() };
    const created = await createIfAbsent(channelEntity, channel);
    channels.push(created.outcome === 'conditionFailed' ? created.current : channel);
  }
  return channels;
}

const leaseChanges = (intentId: string, maxTime: number) => ({
  set: { holder: intentId, leaseMaxTime: maxTime },
});

/**
 * Leases a channel to the intent until `maxTime`: the one it already holds (a worker resuming after a
 * crash), else a free one (starting at a random place, so workers spread), else one whose lease ran out
 * by ledger time. null when every channel is busy: the caller waits or returns its message.
 */
export async function leaseChannel(
  environment: Environment,
  intentId: string,
  maxTime: number,
): Promise<LeasedChannel | null> {
  const pool = await channelPool(environment);
  const lease = await leaseFrom(pool, environment, intentId, maxTime);
  // The pool as this lease leaves it (as read, with this lease): the channels held, and a wait when none was free.
  const inUse = pool.filter(
    (channel) => channel.publicKey === lease?.publicKey || (channel.holder ?? intentId) !== intentId,
  ).length;
  metrics.countChannelLease(environment, inUse, pool.length, lease === null);
  return lease;
}

async function leaseFrom(
  pool: ChannelAccount[],
  environment: Environment,
  intentId: string,
  maxTime: number,
): Promise<LeasedChannel | null> {
  if (pool.length === 0) {
    throw new Error(`No ${environment} channel accounts: create them with \`admin channels\``);
  }
  const own = pool.find((channel) => channel.holder === intentId);
  if (own) return renewLease(environment, own.publicKey, intentId, maxTime, pool);
  const start = Math.floor(Math.random() * pool.length);
  const rotated = [...pool.slice(start), ...pool.slice(0, start)];
  for (const channel of rotated.filter((c) => c.holder === undefined)) {
    const written = await updateIf<ChannelAccount>(
      ledgerKeys.channel(environment, channel.index),
      leaseChanges(intentId, maxTime),
      conditions.free,
    );
    if (written.outcome === 'written') return leased(written.record);
  }
  const held = rotated.filter((c) => c.holder !== undefined);
  if (held.length === 0) return null;
  const closedAt = await latestClosedAt(environment);
  for (const channel of held.filter((c) => closedAt !== null && (c.leaseMaxTime ?? 0) < closedAt)) {
    const written = await updateIf<ChannelAccount>(
      ledgerKeys.channel(environment, channel.index),
      leaseChanges(intentId, maxTime),
      conditions.heldAsSeen(channel),
    );
    if (written.outcome === 'written') return leased(written.record);
  }
  return null;
}

/**
 * Extends the intent's lease of the channel `publicKey` to cover an envelope valid until `maxTime` (a
 * same-sequence replacement). null when the intent no longer holds it.
 */
export async function renewLease(
  environment: Environment,
  publicKey: string,
  intentId: string,
  maxTime: number,
  pool?: ChannelAccount[],
): Promise<LeasedChannel | null> {
  const channel = (pool ?? (await channelPool(environment))).find((c) => c.publicKey === publicKey);
  if (!channel || channel.holder !== intentId) return null;
  const written = await updateIf<ChannelAccount>(
    ledgerKeys.channel(environment, channel.index),
    leaseChanges(intentId, Math.max(maxTime, channel.leaseMaxTime ?? 0)),
    conditions.heldBy(intentId),
  );
  return written.outcome === 'written' ? leased(written.record) : null;
}

/**
 * Frees every channel the intent holds: it settled, or holds nothing that can land. `landed` is the
 * envelope of the intent's that a closed ledger holds, if any: its channel keeps that sequence number.
 */
export async function releaseChannels(
  environment: Environment,
  intentId: string,
  landed?: LandedSequence & { source: string },
): Promise<void> {
  const held = (await channelPool(environment)).filter((channel) => channel.holder === intentId);
  for (const channel of held) {
    const consumed =
      landed?.source === channel.publicKey
        ? { landed: { network: landed.network, sequence: landed.sequence } }
        : undefined;
    await updateIf<ChannelAccount>(
      ledgerKeys.channel(environment, channel.index),
      { remove: ['holder', 'leaseMaxTime'], ...(consumed ? { set: consumed } : {}) },
      conditions.heldBy(intentId),
    );
  }
}
