// When a failed delivery is tried again: exponential back-off with jitter over about three days, as
// Stripe retries. SQS delays at most 15 minutes, so a longer wait is a message re-queued with
// `notBefore` until its time (lib/webhooks/delivery.ts).

/** Seconds to wait after attempt n (the index) before attempt n + 1; 11 attempts in all. */
const BACKOFF_SECONDS = [5, 60, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 72_000];

/** The attempt after which a failure is final. */
export const MAX_ATTEMPTS = BACKOFF_SECONDS.length + 1;

/** Attempts a delivery's log keeps (lib/webhooks/repo.ts): the whole schedule and the latest redeliveries. */
export const KEPT_ATTEMPTS = 20;

/** Total wait from the first attempt to the last, without jitter (about 72 hours). */
export const SCHEDULE_SECONDS = BACKOFF_SECONDS.reduce((sum, s) => sum + s, 0);

/**
 * The wait after a failed `attempt` (1-based), ±20 % jitter so receivers that fail together do not retry
 * together; `scale` is WEBHOOK_RETRY_SCALE (1 but in the test stack).
 */
export function retryDelayMs(attempt: number, scale = 1, random: () => number = Math.random): number {
  const base = BACKOFF_SECONDS[Math.min(attempt, BACKOFF_SECONDS.length) - 1] ?? 0;
  return Math.round(base * 1000 * scale * (0.8 + 0.4 * random()));
}
