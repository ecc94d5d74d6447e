// Fixed-window request counting in the table: one atomic ADD per request, the window item expiring by TTL.
import { config } from '../config.ts';
import { absentOrBelow } from '../db/conditions.ts';
import { updateIf } from '../db/items.ts';
import { keys } from '../db/keys.ts';
import { tooManyRequests } from '../http/problem.ts';

/** Counts a token request for the client; throws 429 with Retry-After past the configured limit. */
export async function countTokenRequest(clientId: string, now: Date): Promise<void> {
  const { TOKEN_RATE_LIMIT: limit, TOKEN_RATE_WINDOW_SECONDS: window } = config();
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % window);
  const counted = await updateIf(
    keys.tokenRateWindow(clientId, windowStart),
    { add: { requests: 1 }, setIfAbsent: { expiresAt: windowStart + window * 2 } },
    absentOrBelow('requests', limit),
  );
  if (counted.outcome !== 'written') throw tooManyRequests(Math.max(1, windowStart + window - nowSeconds));
}
