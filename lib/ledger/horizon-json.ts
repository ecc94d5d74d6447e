// Horizon's JSON over node:http, for the ledger reads (balances, paths, payment history, accounts to build
// on) and for submissions. Reads need no transactions, so the functions that only read leave the Stellar
// SDK and its XDR (~400 KiB) out of their bundles and their cold starts. node:http rather than fetch
// (bench section 7c): a third less CPU a request, and no undici to load on a function's first ledger
// request (14 ms of CPU); the AWS SDK has loaded node:http already.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
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

/** Connections kept open between requests, as the SDK's clients keep theirs: one Horizon per environment. */
const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

/** A Horizon answer as it came: its status, its `Latest-Ledger` header and its body's text. */
export interface HorizonResponse {
  status: number;
  statusText: string;
  latestLedger: number | null;
  text: string;
}

/**
 * One request to Horizon, bounded by LEDGER_TIMEOUT_MS (its message then says `timeout`, as the SDK's
 * did: submissions are looked up after one, lib/ledger/result-codes.ts). A GET whose kept-alive
 * connection the server had just closed is sent once more on a fresh one; a POST never is (a
 * submission in doubt is looked up, never sent twice unasked).
 */
export function horizonRequest(
  url: URL,
  method: 'GET' | 'POST',
  body?: { type: string; text: string },
): Promise<HorizonResponse> {
  const timeoutMs = config().LEDGER_TIMEOUT_MS;
  const send = (retry: boolean) =>
    new Promise<HorizonResponse>((resolve, reject) => {
      const secure = url.protocol === 'https:';
      const request = (secure ? httpsRequest : httpRequest)(url, {
        method,
        agent: secure ? agents.https : agents.http,
        headers: {
          accept: 'application/hal+json, application/json',
          ...(body ? { 'content-type': body.type, 'content-length': Buffer.byteLength(body.text) } : {}),
        },
      });
      const timer = setTimeout(
        () => request.destroy(new Error(`timeout of ${timeoutMs} ms exceeded`)),
        timeoutMs,
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        if (retry && request.reusedSocket && error.code === 'ECONNRESET') resolve(send(false));
        else reject(error);
      });
      request.on('response', (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
        response.on('end', () => {
          clearTimeout(timer);
          const latest = Number(response.headers['latest-ledger']);
          resolve({
            status: response.statusCode ?? 0,
            statusText: response.statusMessage ?? '',
            latestLedger: Number.isSafeInteger(latest) && latest > 0 ? latest : null,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
      });
      request.end(body?.text);
    });
  return send(method === 'GET');
}

/** The URL of `segments` under the environment's Horizon (each percent-encoded, appended as the SDK does). */
export function horizonUrl(
  environment: Environment,
  segments: string[],
  query: Record<string, string | undefined> = {},
): URL {
  const url = new URL(horizonUrlOf(environment));
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${segments.map(encodeURIComponent).join('/')}`;
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) url.searchParams.set(name, value);
  return url;
}

/**
 * GET the resource at `segments` under the environment's Horizon. A 404 is a null body. Anything else
 * (unreachable, too slow, another status, a body that is not JSON) throws LedgerUnavailableError, its
 * message prefixed by `failure`.
 */
export async function horizonFetch<T>(
  environment: Environment,
  segments: string[],
  query: Record<string, string | undefined>,
  failure: string,
): Promise<HorizonAnswer<T>> {
  try {
    const response = await horizonRequest(horizonUrl(environment, segments, query), 'GET');
    const { latestLedger } = response;
    if (response.status === 404) return { body: null, latestLedger };
    if (response.status < 200 || response.status > 299)
      throw new Error(`Horizon answered ${response.status} ${response.statusText}`);
    return { body: JSON.parse(response.text) as T, latestLedger };
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
