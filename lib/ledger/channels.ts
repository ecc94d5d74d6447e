// Channel accounts (docs/decisions/channel-accounts.md, as Stellar's Disbursement Platform runs them):
// platform accounts whose only job is to be the source account, and so the sequence number, of the
// transactions the gateway submits. The wallet (or the funding account) is the source of the operations and
// signs them; the funding account pays the fee with a fee bump. Transactions of different wallets then never
// wait on one sequence number, and one wallet can be in several payments of the same ledger. The pool size is
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
//
// A lease costs the same whatever the pool's size: it reads at most LEASE_PROBES slots (the
// intent's home slot, a hash of its id, then random ones) in one batch and claims the first free one, so
// a pool of hundreds is never read whole. Renewing and freeing go straight to the channel's item by its
// account (a CHANNELKEY item, written with the channel, gives its number): one conditional write each.
// A worker claims the channel it freed last straight away, reading nothing (channel-per-worker
// affinity): after a ledger closes every worker frees its channel and leases again at once, and reading
// probes they would race for the same few free slots, each lost claim another round trip. Only when that
// claim loses, or for one lease in LEASE_SAMPLE_EVERY (the pool's use, for the ChannelsInUse metric), does
// a lease read its probes.

import { createHash } from 'node:crypto';
import { config } from '../config.ts';
import { type Condition, holds } from '../db/conditions.ts';
import { entity } from '../db/entity.ts';
import { createIfAbsent, getRecord, getRecords, readAllPages, updateIf } from '../db/items.ts';
import { ledgerKeys } from '../db/keys.ts';
import * as metrics from '../metrics.ts';
import type { Environment } from '../tenant.ts';
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
  /**
   * Set by a release whose holder's transaction landed on the channel (`landed` is then the channel's
   * sequence number on the ledger, as nobody else builds on it), removed by every other release: the next
   * holder to claim it free builds on `landed` without reading the account (LeasedChannel.known).
   */
  landedLast?: true;
}

/** A channel's sequence number known consumed, on one network (tests run ledgers side by side). */
export interface LandedSequence {
  network: string;
  sequence: string;
}

/**
 * The sequence number to build on: the ledger's, unless a read lagging behind the ledger (a Horizon
 * replica a few ledgers behind) shows one the channel's last holder already saw consumed. Building on
 * that stale number is what once let two intents build the same envelope (docs/decisions/ledger-outcomes.md):
 * it can only fail with tx_bad_seq, and an envelope identical to the one that landed would be taken for it.
 */
export function sequenceToBuildOn(
  onLedger: string,
  landed: LandedSequence | undefined,
  network: string,
): string {
  if (!landed || landed.network !== network) return onLedger;
  return BigInt(landed.sequence) > BigInt(onLedger) ? landed.sequence : onLedger;
}

/**
 * A channel as its holder builds on it. `known`: its sequence number on the ledger, when the channel was
 * claimed free right after a holder whose transaction landed on it (`landedLast`). A channel renewed or
 * taken over from a holder that did not release it may have moved since: its account is read. Were
 * `known` ever behind the ledger (someone else built on the channel), the envelope would only fail
 * tx_bad_seq, be proven superseded and be rebuilt on a read, as after a lagging read.
 */
export type LeasedChannel = Pick<ChannelAccount, 'index' | 'publicKey' | 'sealedSecret' | 'landed'> & {
  known?: LandedSequence;
};

const channelEntity = entity<ChannelAccount>({
  type: 'ledgerChannel',
  keyOf: (channel) => ledgerKeys.channel(channel.environment, channel.index),
});

const conditions = {
  free: { expression: 'attribute_exists(pk) AND attribute_not_exists(holder)' },
  /** Held by the intent (and, to renew it to `maxTime`, a lease not reaching further already). */
  heldBy: (intentId: string, maxTime?: number): Condition => {
    const held = holds({ holder: intentId });
    if (maxTime === undefined) return held;
    return {
      expression: `${held.expression} AND (attribute_not_exists(#cMax) OR #cMax <= :cMax)`,
      names: { ...held.names, '#cMax': 'leaseMaxTime' },
      values: { ...held.values, ':cMax': maxTime },
    };
  },
  /** Still held as the taker saw it, when its lease had run out by ledger time. */
  heldAsSeen: (channel: ChannelAccount) =>
    holds({ holder: channel.holder, leaseMaxTime: channel.leaseMaxTime }),
};

const leased = (
  { index, publicKey, sealedSecret, landed, landedLast }: ChannelAccount,
  claimedFree = false,
): LeasedChannel => ({
  index,
  publicKey,
  sealedSecret,
  ...(landed ? { landed } : {}),
  ...(claimedFree && landedLast && landed ? { known: landed } : {}),
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

/** A channel's number by its account (immutable once written: cached for the process). */
interface ChannelKey {
  environment: Environment;
  publicKey: string;
  index: number;
}

const channelKeyEntity = entity<ChannelKey>({
  type: 'ledgerChannelKey',
  keyOf: (key) => ledgerKeys.channelKey(key.environment, key.publicKey),
});

/** Channels written at once by ensureChannelKeys (a pool of hundreds is made in seconds). */
const CHANNELS_WRITTEN_AT_ONCE = 25;

/**
 * The keys of the pool's first `count` channels, creating those missing (idempotent), each with the item
 * that finds it by its account. `newKeys` seals them (the custody KEK by default; the bench, which has
 * none, brings its own).
 */
export async function ensureChannelKeys(
  environment: Environment,
  count: number,
  options: { now?: Date; newKeys?: (environment: Environment) => Promise<AccountKeys> } = {},
): Promise<ChannelAccount[]> {
  const now = options.now ?? new Date();
  const ensure = async (index: number): Promise<ChannelAccount> => {
    const { publicKey, sealedSecret } = await (options.newKeys ?? newAccountKeys)(environment);
    const fresh = { environment, index, publicKey, sealedSecret, createdAt: now.toISOString() };
    const created = await createIfAbsent(channelEntity, fresh);
    const channel = created.outcome === 'conditionFailed' ? created.current : fresh;
    await createIfAbsent(channelKeyEntity, { environment, publicKey: channel.publicKey, index });
    return channel;
  };
  const channels: ChannelAccount[] = [];
  for (let first = 0; first < count; first += CHANNELS_WRITTEN_AT_ONCE) {
    const indices = Array.from(
      { length: Math.min(CHANNELS_WRITTEN_AT_ONCE, count - first) },
      (_, i) => first + i,
    );
    channels.push(...(await Promise.all(indices.map(ensure))));
  }
  return channels;
}

const knownIndices = new Map<string, number>();

/** The channel's number in the pool, from its account; undefined for an account that is no channel. */
async function channelIndexOf(environment: Environment, publicKey: string): Promise<number | undefined> {
  const id = `${environment}:${publicKey}`;
  let index = knownIndices.get(id);
  if (index === undefined) {
    const key = await getRecord<ChannelKey>(ledgerKeys.channelKey(environment, publicKey));
    // A channel made before its key item (`admin channels open` writes the missing ones): read the pool.
    index =
      key?.index ??
      (await channelPool(environment)).find((channel) => channel.publicKey === publicKey)?.index;
    if (index !== undefined) knownIndices.set(id, index);
  }
  return index;
}

/** Leases the channel to the intent until `maxTime` if `condition` holds. */
const writeLease = (
  environment: Environment,
  index: number,
  intentId: string,
  maxTime: number,
  condition: Condition,
) =>
  updateIf<ChannelAccount>(
    ledgerKeys.channel(environment, index),
    { set: { holder: intentId, leaseMaxTime: maxTime } },
    condition,
  );

/** Slots a lease reads at most, whatever the pool's size: all of a pool this small. */
export const LEASE_PROBES = 16;

/**
 * Channels this process freed, newest last, by environment: a lease takes one to try first. A Lambda
 * container runs one invocation at a time, so there it is the channel its last intent held; where many
 * invocations share a process (the local stack, the bench), each lease takes a different one.
 */
const freedHere = new Map<Environment, number[]>();

/** One lease in this many of a process reads its probes even with a freed channel to claim. */
export const LEASE_SAMPLE_EVERY = 8;
let leasesHere = 0;

function noteFreed(environment: Environment, index: number): void {
  const freed = freedHere.get(environment) ?? [];
  freed.push(index);
  // Every channel at most once over: a process freeing hundreds at one ledger close keeps each.
  if (freed.length > config().LEDGER_CHANNELS) freed.shift();
  freedHere.set(environment, freed);
}

/**
 * The slots a lease tries, in order: the channel this process freed last (its sequence number likely
 * known: LeasedChannel.known), the intent's home slot (a worker resuming the intent tries the one it most
 * likely holds first), then the others in turn or at random, LEASE_PROBES in all.
 */
function probesFor(intentId: string, size: number, freed: number | undefined): number[] {
  const home = createHash('sha256').update(intentId).digest().readUInt32BE(0) % size;
  const probes = new Set(freed === undefined ? [home] : [freed, home]);
  if (size <= LEASE_PROBES) {
    for (let i = 1; i < size; i++) probes.add((home + i) % size);
    return [...probes];
  }
  while (probes.size < LEASE_PROBES) probes.add(Math.floor(Math.random() * size));
  return [...probes];
}

/**
 * Leases a channel to the intent until `maxTime`: the one this process freed last, claimed without a read
 * while it is still free; else, among the slots read, the one the intent already holds (a worker resuming
 * after a crash), a free one, or one whose lease ran out by ledger time. null when every slot read is
 * busy: the caller waits or returns its message.
 */
export async function leaseChannel(
  environment: Environment,
  intentId: string,
  maxTime: number,
): Promise<LeasedChannel | null> {
  const size = config().LEDGER_CHANNELS;
  const last = freedHere.get(environment)?.pop();
  const freed = last !== undefined && last < size ? last : undefined;
  const sampled = leasesHere++ % LEASE_SAMPLE_EVERY === 0;
  if (freed !== undefined && !sampled) {
    const claimed = await claimFree(environment, freed, intentId, maxTime);
    if (claimed) return claimed;
  }
  const probes = probesFor(intentId, size, freed);
  // Eventually consistent: only a hint of which slots are free; the conditional claim decides. Claims go
  // in the order of the probes (a batch read answers in any order).
  const slots = (
    await getRecords<ChannelAccount>(probes.map((index) => ledgerKeys.channel(environment, index)))
  ).sort((a, b) => probes.indexOf(a.index) - probes.indexOf(b.index));
  if (slots.length === 0) {
    throw new Error(`No ${environment} channel accounts: create them with \`admin channels\``);
  }
  const lease = await leaseFrom(slots, environment, intentId, maxTime);
  // The pool as this lease leaves it, estimated from the slots read: the share held, and a wait when none was free.
  const held = slots.filter(
    (channel) => channel.publicKey === lease?.publicKey || (channel.holder ?? intentId) !== intentId,
  ).length;
  metrics.countChannelLease(environment, Math.round((held / slots.length) * size), size, lease === null);
  return lease;
}

async function leaseFrom(
  slots: ChannelAccount[],
  environment: Environment,
  intentId: string,
  maxTime: number,
): Promise<LeasedChannel | null> {
  const own = slots.find((channel) => channel.holder === intentId);
  if (own) return renewAt(environment, own.index, intentId, maxTime);
  for (const channel of slots.filter((c) => c.holder === undefined)) {
    const claimed = await claimFree(environment, channel.index, intentId, maxTime);
    if (claimed) return claimed;
  }
  const held = slots.filter((c) => c.holder !== undefined);
  if (held.length === 0) return null;
  const closedAt = await latestClosedAt(environment);
  for (const channel of held.filter((c) => closedAt !== null && (c.leaseMaxTime ?? 0) < closedAt)) {
    const written = await writeLease(
      environment,
      channel.index,
      intentId,
      maxTime,
      conditions.heldAsSeen(channel),
    );
    if (written.outcome === 'written') return leased(written.record);
  }
  return null;
}

/** Claims the channel if it is free (or renews it if it is the intent's already); null when another holds it. */
async function claimFree(
  environment: Environment,
  index: number,
  intentId: string,
  maxTime: number,
): Promise<LeasedChannel | null> {
  const written = await writeLease(environment, index, intentId, maxTime, conditions.free);
  if (written.outcome === 'written') return leased(written.record, true);
  // A stale read, or the channel this worker freed was leased to the intent again meanwhile.
  if (written.outcome === 'conditionFailed' && written.current.holder === intentId)
    return renewAt(environment, index, intentId, maxTime);
  return null;
}

/**
 * Extends the intent's lease of the channel `publicKey` to cover an envelope valid until `maxTime` (a
 * same-sequence replacement; a lease already reaching further stays as it is). null when the intent no
 * longer holds it.
 */
export async function renewLease(
  environment: Environment,
  publicKey: string,
  intentId: string,
  maxTime: number,
): Promise<LeasedChannel | null> {
  const index = await channelIndexOf(environment, publicKey);
  return index === undefined ? null : renewAt(environment, index, intentId, maxTime);
}

async function renewAt(
  environment: Environment,
  index: number,
  intentId: string,
  maxTime: number,
): Promise<LeasedChannel | null> {
  const written = await writeLease(
    environment,
    index,
    intentId,
    maxTime,
    conditions.heldBy(intentId, maxTime),
  );
  if (written.outcome === 'written') return leased(written.record);
  return written.outcome === 'conditionFailed' && written.current.holder === intentId
    ? leased(written.current)
    : null;
}

/**
 * Frees the channels `publicKeys` the intent holds (those of its envelopes, and the one it leased now):
 * it settled, or holds nothing that can land; one conditional write each, a channel held by another
 * left alone. `landed` is the envelope of the intent's that a closed ledger holds, if any: its channel
 * keeps that sequence number, as the last one consumed (`landedLast`); every other channel loses that mark.
 */
export async function releaseChannels(
  environment: Environment,
  intentId: string,
  publicKeys: readonly string[],
  landed?: LandedSequence & { source: string },
): Promise<void> {
  for (const publicKey of new Set(publicKeys)) {
    const index = await channelIndexOf(environment, publicKey);
    if (index === undefined) continue;
    const consumed =
      landed?.source === publicKey
        ? { landed: { network: landed.network, sequence: landed.sequence }, landedLast: true as const }
        : undefined;
    const written = await updateIf<ChannelAccount>(
      ledgerKeys.channel(environment, index),
      consumed
        ? { remove: ['holder', 'leaseMaxTime'], set: consumed }
        : { remove: ['holder', 'leaseMaxTime', 'landedLast'] },
      conditions.heldBy(intentId),
    );
    if (written.outcome === 'written') noteFreed(environment, index);
  }
}
