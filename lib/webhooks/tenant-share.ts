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
// The share is one item per tenant and lane, holding its holders: each attempt's id and the end of its
// lease. An attempt takes a slot with one conditional write (fewer holders than the share → it is one),
// and gives it back with one more; only when the write finds the share full does it look at the
// holders the failed write returned, and one whose lease ran out (its worker died holding it: killed at
// its timeout, crashed) is dropped in the write that takes its place, conditional on its lease being the
// one seen. A lease, never a count that leaks: LEASE_MS is the worker's timeout, which no invocation
// outlives.
import { absent, exists, fewerEntries } from '../db/conditions.ts';
import { updateIf } from '../db/items.ts';
import { tenantScope, webhookKeys } from '../db/keys.ts';
import { queues } from '../queues.ts';
import type { Tenant } from '../tenant.ts';

/** The deliverers' timeout (a sixth of their queues' 90 s visibility): no holder outlives its lease. */
export const LEASE_MS = 15_000;

/** The tenant's share of a lane: who holds a slot, and until when (epoch ms; past it, the slot is free). */
interface Share {
  holders?: Record<string, number>;
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
 * the tenant is taken as still full without a write (a backlog going round the queue then costs a send
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

/** Writes that may meet another worker's change of the same share before one settles it. */
const TRIES = 3;

/**
 * Takes one of the tenant's `share` slots in `lane` for `holder` until now + LEASE_MS; null when every
 * one is held by a lease still running.
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
  const key = webhookKeys.share(tenant, lane);
  const lease = { [holder]: at + LEASE_MS };
  // Most takes: fewer holders than the share, one write.
  let taken = await updateIf<Share>(
    key,
    { setEntries: { holders: lease } },
    fewerEntries('holders', share, {}),
  );
  for (let tries = 1; taken.outcome !== 'written' && tries < TRIES; tries++) {
    if (taken.outcome === 'missing') {
      // The tenant's first attempt in the lane: the item, with this holder.
      taken = await updateIf<Share>(key, { set: { type: 'webhookShare', holders: lease } }, absent);
      continue;
    }
    // Full: the holders whose lease ran out make room, each dropped only if its lease is still the one seen.
    const holders = taken.current.holders ?? {};
    const lapsed = Object.fromEntries(Object.entries(holders).filter(([, until]) => until <= at));
    const room = Object.keys(lapsed).length;
    if (Object.keys(holders).length - room >= share) break;
    taken = await updateIf<Share>(
      key,
      { setEntries: { holders: lease }, removeEntries: { holders: Object.keys(lapsed) } },
      fewerEntries('holders', share + room, lapsed),
    );
  }
  if (taken.outcome === 'written')
    return {
      release: async () => {
        await updateIf<Share>(key, { removeEntries: { holders: [holder] } }, exists);
      },
    };
  fullSightings.set(hint, { since: seen && at - seen.last < STREAK_MS ? seen.since : at, last: at });
  return null;
}
