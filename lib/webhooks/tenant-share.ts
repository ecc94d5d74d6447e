// A tenant's share of a delivery lane. The lanes' workers are shared by every tenant, so one tenant whose
// receivers answer just under the slow mark (say 1.9 s, each) would otherwise hold every invocation of
// the main lane with its own attempts while another tenant's deliveries wait behind them. Each attempt
// therefore first takes one of its tenant's slots in the lane — `tenantShare` of them (lib/queues.ts),
// fewer than the lane's invocations — and a tenant whose slots are all taken has its message put back
// with a short, growing delay (lib/webhooks/delivery.ts defer) instead of waiting in an invocation: a
// tenant never holds more of a lane than its share, whatever its receivers do, and the rest of the lane
// serves everyone else. It needs nothing of the queue (SQS fair queues would reorder a shared backlog,
// not bound what one tenant's slow attempts hold), so it runs the same in AWS and on the local stack.
//
// A slot is an item taken by a conditional write: free (never written, or released) or its lease run
// out → held by this attempt until `leaseUntil`. The attempt releases it when done; a worker that dies
// holding one (killed at its timeout, crashed) leaves a lease that runs out by itself, never a count
// that leaks: LEASE_MS is the worker's timeout, which no invocation outlives.
import { absentOrBelow, holds } from '../db/conditions.ts';
import { readAllPages, updateIf } from '../db/items.ts';
import { tenantScope, webhookKeys } from '../db/keys.ts';
import { queues } from '../queues.ts';
import type { Tenant } from '../tenant.ts';

/** The deliverers' timeout (a sixth of their queues' 90 s visibility): no holder outlives its lease. */
export const LEASE_MS = 15_000;

interface Slot {
  index: number;
  /** Which attempt holds it; absent when released. */
  holder?: string;
  /** Epoch milliseconds: past it the slot is free whoever held it. */
  leaseUntil?: number;
}

/** The slots a tenant has in the lane fed by `queueName`. */
export function tenantShareOf(queueName: string): number {
  const share = queues.find((queue) => queue.name === queueName)?.tenantShare;
  if (!share) throw new Error(`Queue ${queueName} states no tenantShare`);
  return share;
}

/**
 * What this instance saw of tenants holding their whole share: since when (in a streak of sightings no
 * more than STREAK_MS apart) and when last. Hints only, never the bound: for a second after a sighting
 * the tenant is taken as still full without a query (a backlog going round the queue then costs a send
 * per message), and a tenant full for longer than a burst has its attempts put back for longer.
 */
const fullSightings = new Map<string, { since: number; last: number }>();
const FULL_HINT_MS = 1000;
const STREAK_MS = 5000;

/** How long this instance has seen the tenant hold its whole share of the lane, in ms (0: not now). */
export function fullForMs(tenant: Tenant, lane: string, now: Date): number {
  const seen = fullSightings.get(`${tenantScope(tenant)}/${lane}`);
  return seen && now.getTime() - seen.last < STREAK_MS ? now.getTime() - seen.since : 0;
}

export interface HeldSlot {
  release(): Promise<void>;
}

/**
 * Takes one of the tenant's `share` slots in `lane` for `holder` until now + LEASE_MS: a free one, tried
 * from a random place so workers spread; null when every one is held.
 */
export async function takeSlot(
  tenant: Tenant,
  lane: string,
  share: number,
  holder: string,
  now: Date,
): Promise<HeldSlot | null> {
  const at = now.getTime();
  const hint = `${tenantScope(tenant)}/${lane}`;
  const seen = fullSightings.get(hint);
  if (seen && at - seen.last < FULL_HINT_MS) return null;
  const held = await readAllPages<Slot>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantScope(tenant), ':prefix': webhookKeys.slotPrefix(lane) },
    ConsistentRead: true,
  });
  const busy = new Set(held.filter((slot) => (slot.leaseUntil ?? 0) > at).map((slot) => slot.index));
  const start = Math.floor(Math.random() * share);
  for (let i = 0; i < share; i++) {
    const index = (start + i) % share;
    if (busy.has(index)) continue;
    const key = webhookKeys.slot(tenant, lane, index);
    const taken = await updateIf<Slot>(
      key,
      { set: { type: 'webhookSlot', index, holder, leaseUntil: at + LEASE_MS } },
      absentOrBelow('leaseUntil', at + 1),
    );
    if (taken.outcome === 'written')
      return {
        release: async () => {
          await updateIf<Slot>(key, { remove: ['holder', 'leaseUntil'] }, holds({ holder }));
        },
      };
  }
  fullSightings.set(hint, { since: seen && at - seen.last < STREAK_MS ? seen.since : at, last: at });
  return null;
}
