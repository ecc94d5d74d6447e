// Fixed-window counting in the table: one atomic ADD per counted request, the window item expiring by
// TTL. What the token route's rate limit, each application's request limits (lib/limits) and a
// webhook's redeliveries are counted with.
import { absentOrBelow } from './conditions.ts';
import { updateIf } from './items.ts';
import type { ItemKey } from './keys.ts';

/** One request's count in its window. */
export interface WindowCount {
  /** False when `limit` were counted in the window already (this one was not). */
  counted: boolean;
  /** Requests counted in the window, this one included when it was. */
  used: number;
  /** Seconds until the window ends (at least 1). */
  resetSeconds: number;
}

/** The start (epoch seconds) of the `windowSeconds` window that holds `now`. */
export function windowStartOf(now: Date, windowSeconds: number): number {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  return nowSeconds - (nowSeconds % windowSeconds);
}

/** Counts one request in the `windowSeconds` window that holds `now` (its item is `keyOf(windowStart)`). */
export async function countInWindowOf(
  keyOf: (windowStart: number) => ItemKey,
  limit: number,
  windowSeconds: number,
  now: Date,
): Promise<WindowCount> {
  const windowStart = windowStartOf(now, windowSeconds);
  const counted = await updateIf<{ requests?: number }>(
    keyOf(windowStart),
    { add: { requests: 1 }, setIfAbsent: { expiresAt: windowStart + windowSeconds * 2 } },
    absentOrBelow('requests', limit),
  );
  const resetSeconds = Math.max(1, windowStart + windowSeconds - Math.floor(now.getTime() / 1000));
  if (counted.outcome === 'written')
    return { counted: true, used: counted.record.requests ?? 1, resetSeconds };
  const used = counted.outcome === 'conditionFailed' ? (counted.current.requests ?? limit) : limit;
  return { counted: false, used, resetSeconds };
}

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
  const count = await countInWindowOf(keyOf, limit, windowSeconds, now);
  return count.counted ? null : count.resetSeconds;
}
