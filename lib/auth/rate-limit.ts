// Token requests counted per client in fixed windows (lib/db/window-count.ts).
import { config } from '../config.ts';
import { keys } from '../db/keys.ts';
import { countInWindow } from '../db/window-count.ts';
import { tooManyRequests } from '../http/problem.ts';

/** Counts a token request for the client; throws 429 with Retry-After past the configured limit. */
export async function countTokenRequest(clientId: string, now: Date): Promise<void> {
  const { TOKEN_RATE_LIMIT: limit, TOKEN_RATE_WINDOW_SECONDS: window } = config();
  const wait = await countInWindow((start) => keys.tokenRateWindow(clientId, start), limit, window, now);
  if (wait !== null) throw tooManyRequests(wait);
}
