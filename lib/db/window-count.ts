// Fixed-window counting in the table: one atomic ADD per counted request, the window item expiring by
// TTL. What the token route's rate limit and a webhook's redeliveries are counted with.
import { absentOrBelow } from './conditions.ts';
import { updateIf } from './items.ts';
import type { ItemKey } from './keys.ts';

/**
 * Counts one request in the `windowSeconds` window that holds `now` (its item is `keyOf(windowStart)`):
 * null when counted, else the seconds until the window ends (`limit` were counted in it already).
 */
export async function countInWindow(
  keyOf: (windowStart: number) => ItemKey,
  limit: number,
  windowSeconds: number,
  now: Date,
): Promise<number | null> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % windowSeconds);
  const counted = await updateIf(
    keyOf(windowStart),
    { add: { requests: 1 }, setIfAbsent: { expiresAt: windowStart + windowSeconds * 2 } },
    absentOrBelow('requests', limit),
  );
  return counted.outcome === 'written' ? null : Math.max(1, windowStart + windowSeconds - nowSeconds);
}
