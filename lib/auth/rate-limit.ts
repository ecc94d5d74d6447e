// Token requests counted in fixed windows (lib/db/window-count.ts). Every window is keyed on what the caller proved, never on a clientId it merely
// named: the application its x-service-auth key proves (failures, per application and per source
// address within it) and, once its secret matched, the client (tokens issued). So no application can
// spend another's window, whichever clientId or environment it names.
import { config } from '../config.ts';
import { getRecord } from '../db/items.ts';
import { keys } from '../db/keys.ts';
import { countInWindow } from '../db/window-count.ts';
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

/** Adds one to the subject's window unless it holds `limit` already: null, else the seconds to wait. */
const count = (subject: string, limit: number, now: Date): Promise<number | null> =>
  countInWindow(
    (start) => keys.tokenRateWindow(subject, start),
    limit,
    config().TOKEN_RATE_WINDOW_SECONDS,
    now,
  );

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
  await Promise.all(
    failureWindows(applicationId, sourceIp).map(({ subject, limit }) => count(subject, limit, now)),
  );
}

/** Counts a token issued to an authenticated client; 429 with Retry-After past the configured limit. */
export async function countTokenIssued(clientId: string, now: Date): Promise<void> {
  const wait = await count(`client#${clientId}`, config().TOKEN_RATE_LIMIT, now);
  if (wait !== null) throw tooManyRequests(wait);
}
