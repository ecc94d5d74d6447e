// Reads an execution environment keeps for a bounded time (docs/decisions/held-reads.md): what every request
// reads and almost never changes (an API key, a bearer token's client, a registry asset, the funding
// account), kept for REFERENCE_MAX_AGE_SECONDS (at most a minute) from the read, so a warm function asks the
// table once a minute per key rather than once a request. The bound is the staleness: a revoked key or client
// is refused, a registry change seen, within it. A miss is never kept (a key created a moment ago works at
// once), and at most MAX_HELD keys are kept, the oldest read dropped first.
import { config } from '../config.ts';
import { tableName } from './client.ts';

const MAX_HELD = 1000;

/** `read`, each answer kept for REFERENCE_MAX_AGE_SECONDS; `now` is the clock the tests may move. */
export function heldReads<K extends string, V>(
  read: (key: K) => Promise<V | undefined>,
  now: () => number = Date.now,
): (key: K) => Promise<V | undefined> {
  // Keyed by table too: a process that moves to a table of its own (the tests, the bench) reads afresh.
  const held = new Map<string, { value: V; until: number }>();
  return async (key) => {
    const maxAgeMs = config().REFERENCE_MAX_AGE_SECONDS * 1000;
    const heldKey = `${tableName()}|${key}`;
    const kept = held.get(heldKey);
    if (kept && now() < kept.until) return kept.value;
    held.delete(heldKey);
    const value = await read(key);
    if (value === undefined || maxAgeMs === 0) return value;
    if (held.size >= MAX_HELD) held.delete(held.keys().next().value as string);
    held.set(heldKey, { value, until: now() + maxAgeMs });
    return value;
  };
}
