// Horizon's JSON read with fetch, for the ledger reads (balances, paths, payment history). Reads need no
// transactions, so the functions that only read leave the Stellar SDK and its XDR (~400 KiB) out of
// their bundles and their cold starts. The SDK's Horizon client serves transaction building only
// (load-account.ts, submit.ts).
import { config } from '../config.ts';
import type { Environment } from '../tenant.ts';
import { LedgerUnavailableError } from './errors.ts';

/** The Horizon of an environment (the local stack points sandbox at its local ledger). */
export function horizonUrlOf(environment: Environment): string {
  const c = config();
  return environment === 'production' ? c.HORIZON_URL_PRODUCTION : c.HORIZON_URL_SANDBOX;
}

/** A collection page as Horizon sends it. */
export interface HorizonPage<T> {
  _embedded: { records: T[] };
}

/** A Horizon answer: the parsed body (null for a 404) and the newest ledger that Horizon had ingested. */
export interface HorizonAnswer<T> {
  body: T | null;
  /** Horizon's `Latest-Ledger` header (null when absent): what a 404 can be trusted for. */
  latestLedger: number | null;
}

/**
 * GET the resource at `segments` under the environment's Horizon (each segment percent-encoded, appended
 * to the configured URL's path as the SDK does), bounded by LEDGER_TIMEOUT_MS like every SDK request.
 * A 404 is a null body. Anything else (unreachable, too slow, another status, a body that is not JSON)
 * throws LedgerUnavailableError, its message prefixed by `failure`.
 */
export async function horizonFetch<T>(
  environment: Environment,
  segments: string[],
  query: Record<string, string | undefined>,
  failure: string,
): Promise<HorizonAnswer<T>> {
  const url = new URL(horizonUrlOf(environment));
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${segments.map(encodeURIComponent).join('/')}`;
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) url.searchParams.set(name, value);
  try {
    const response = await fetch(url, {
      headers: { accept: 'application/hal+json, application/json' },
      signal: AbortSignal.timeout(config().LEDGER_TIMEOUT_MS),
    });
    const latest = Number(response.headers.get('Latest-Ledger'));
    const latestLedger = Number.isSafeInteger(latest) && latest > 0 ? latest : null;
    if (response.status === 404) {
      await response.body?.cancel();
      return { body: null, latestLedger };
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`Horizon answered ${response.status} ${response.statusText}`);
    }
    return { body: (await response.json()) as T, latestLedger };
  } catch (error) {
    throw new LedgerUnavailableError(`${failure}: ${(error as Error).message}`, { cause: error });
  }
}

/** The parsed body of a Horizon GET, or null when Horizon answers 404 (see horizonFetch). */
export async function horizonGet<T>(
  environment: Environment,
  segments: string[],
  query: Record<string, string | undefined>,
  failure: string,
): Promise<T | null> {
  return (await horizonFetch<T>(environment, segments, query, failure)).body;
}
