// Fixed-window counting of token requests in the table: one atomic ADD per count, the window item
// expiring by TTL. Every window is keyed on what the caller proved, never on a clientId it merely
// named: the application its x-service-auth key proves (failures, per application and per source
// address within it) and, once its secret matched, the client (tokens issued). So no application can
// spend another's window, whichever clientId or environment it names.
import { config } from '../config.ts';
import { absentOrBelow } from '../db/conditions.ts';
import { getRecord, updateIf } from '../db/items.ts';
import { keys } from '../db/keys.ts';
import { tooManyRequests } from '../http/problem.ts';

interface Window {
  start: number;
  /** Seconds to the next window: the 429's Retry-After. */
  retryAfter: number;
}

function windowAt(now: Date): Window {
  const window = config().TOKEN_RATE_WINDOW_SECONDS;
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const start = nowSeconds - (nowSeconds % window);
  return { start, retryAfter: Math.max(1, start + window - nowSeconds) };
}

/** Adds one to the subject's window unless it holds `limit` already; false when it was full. */
async function count(subject: string, limit: number, window: Window): Promise<boolean> {
  const counted = await updateIf(
    keys.tokenRateWindow(subject, window.start),
    {
      add: { requests: 1 },
      setIfAbsent: { expiresAt: window.start + config().TOKEN_RATE_WINDOW_SECONDS * 2 },
    },
    absentOrBelow('requests', limit),
  );
  return counted.outcome === 'written';
}

/** The failure windows of an application, over all its sources and from this one, with their limits. */
const failureWindows = (applicationId: string, sourceIp: string) => {
  const { TOKEN_APPLICATION_FAILURE_LIMIT, TOKEN_FAILURE_LIMIT } = config();
  return [
    { subject: `failures#app#${applicationId}`, limit: TOKEN_APPLICATION_FAILURE_LIMIT },
    { subject: `failures#app#${applicationId}#ip#${sourceIp}`, limit: TOKEN_FAILURE_LIMIT },
  ];
};

/**
 * 429 while the application has failed too often in this window, from anywhere or from this source:
 * read before the credentials are checked, so the limit caps guessing (by at most the requests in
 * flight at once).
 */
export async function refuseWhileFailing(applicationId: string, sourceIp: string, now: Date): Promise<void> {
  const window = windowAt(now);
  const counts = await Promise.all(
    failureWindows(applicationId, sourceIp).map(async ({ subject, limit }) => {
      const item = await getRecord<{ requests?: number }>(keys.tokenRateWindow(subject, window.start), {
        consistent: true,
      });
      return (item?.requests ?? 0) >= limit;
    }),
  );
  if (counts.some(Boolean)) throw tooManyRequests(window.retryAfter);
}

/** Counts a failed token request (wrong secret, unknown client, another application's) against its caller. */
export async function countFailure(applicationId: string, sourceIp: string, now: Date): Promise<void> {
  const window = windowAt(now);
  await Promise.all(
    failureWindows(applicationId, sourceIp).map(({ subject, limit }) => count(subject, limit, window)),
  );
}

/** Counts a token issued to an authenticated client; 429 with Retry-After past the configured limit. */
export async function countTokenIssued(clientId: string, now: Date): Promise<void> {
  const window = windowAt(now);
  if (!(await count(`client#${clientId}`, config().TOKEN_RATE_LIMIT, window)))
    throw tooManyRequests(window.retryAfter);
}
