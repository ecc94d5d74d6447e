// Closed-loop load: `concurrency` workers each send the next request as soon as their last one answered.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connectorCatalogueFile } from '../lib/connectors/catalogue-schema.ts';
import {
  type ShortTransactionType,
  shortForm,
  supportedKey,
  type TransactionType,
} from '../lib/connectors/transaction-types.ts';
import type { LocalStack } from '../local/stack.ts';
import { type Summary, summarize } from './stats.ts';

/** One request or unit of work; throws when it did not succeed. */
export type Op = () => Promise<void>;

export interface LoadOptions {
  concurrency: number;
  requests: number;
  /** The case stops early (and says so) once this much time has gone by. */
  capMs: number;
}

export async function runLoad(op: Op, { concurrency, requests, capMs }: LoadOptions): Promise<Summary> {
  const latencies: number[] = [];
  let failures = 0;
  let firstFailure: string | undefined;
  let started = 0;
  let capped = false;
  const begin = performance.now();
  const worker = async () => {
    while (started < requests) {
      if (performance.now() - begin > capMs) {
        capped = true;
        return;
      }
      started++;
      const t0 = performance.now();
      try {
        await op();
        latencies.push(performance.now() - t0);
      } catch (error) {
        failures++;
        firstFailure ??= (error as Error).message;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return summarize(latencies, failures, performance.now() - begin, capped, firstFailure);
}

/** A keep-alive HTTP client with one socket per worker. */
export function httpClient(concurrency: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const send = (url: string, options: { method: string; headers: Record<string, string>; body?: string }) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(url, { method: options.method, headers: options.headers, agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(options.body);
    });
  return { send, close: () => agent.destroy() };
}

export type HttpClient = ReturnType<typeof httpClient>;

export async function expectStatus(
  response: Promise<{ status: number; body: string }>,
  expected: number,
): Promise<string> {
  const { status, body } = await response;
  if (status !== expected) throw new Error(`HTTP ${status} ${body.slice(0, 200)}`);
  return body;
}

const expect200 = (response: Promise<{ status: number; body: string }>) => expectStatus(response, 200);

/** POST /v1/auth/token with the seeded tenant's key and client credentials. */
export function tokenRoute(stack: LocalStack, client: HttpClient): Op {
  const { apiKey, clientId, clientSecret } = stack.seededTenant;
  const body = JSON.stringify({ clientId, clientSecret });
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'x-service-auth': apiKey,
  };
  return async () => {
    await expect200(client.send(`${stack.baseUrl}/auth/token`, { method: 'POST', headers, body }));
  };
}

export const tokenHeaders = (stack: LocalStack, accessToken: string) => ({
  'x-service-auth': stack.seededTenant.apiKey,
  authorization: `Bearer ${accessToken}`,
});

/** GET /v1/assets with the seeded tenant's key and a bearer token. */
export function assetsRoute(stack: LocalStack, client: HttpClient, accessToken: string): Op {
  const headers = tokenHeaders(stack, accessToken);
  return async () => {
    await expect200(client.send(`${stack.baseUrl}/assets`, { method: 'GET', headers }));
  };
}

/** GET /v1/connectors (the first page, default limit) with the seeded tenant's key and a bearer token. */
export function connectorsRoute(stack: LocalStack, client: HttpClient, accessToken: string): Op {
  const headers = tokenHeaders(stack, accessToken);
  return async () => {
    await expect200(client.send(`${stack.baseUrl}/connectors`, { method: 'GET', headers }));
  };
}

/** The body of an exploratory quote: priced for a transaction type, not for a beneficiary. */
export interface QuoteRequest {
  amount: number;
  connectorId: string;
  transactionType: ShortTransactionType;
}

/**
 * An off-ramp exploratory quote of `amount` through the first connector of the repository's catalogue
 * (seed/connectors.json, which every local start loads) that can price it: active, OFF_RAMP, STANDARD,
 * listing `transactionType` ONLINE, with `amount` inside its TRANSACTION limits.
 */
export function offRampQuoteRequest(amount: number, transactionType: TransactionType): QuoteRequest {
  const catalogue = connectorCatalogueFile.parse(
    JSON.parse(readFileSync(new URL('../seed/connectors.json', import.meta.url), 'utf8')),
  );
  const connector = catalogue.find(
    (c) =>
      c.isActive &&
      c.direction === 'OFF_RAMP' &&
      c.flow === 'STANDARD' &&
      c.supportedTransactionType[supportedKey(transactionType)] &&
      c.transactionTypes.some((t) => t.type === transactionType && t.status === 'ONLINE') &&
      c.limits.every(
        (l) =>
          l.scope !== 'TRANSACTION' ||
          l.type !== 'AMOUNT' ||
          l.currency !== c.acceptedAsset ||
          (amount >= l.minValue && amount <= l.maxValue),
      ),
  );
  if (!connector)
    throw new Error(`no connector in seed/connectors.json can quote ${transactionType} off-ramp`);
  return { amount, connectorId: connector.id, transactionType: shortForm(transactionType) };
}

/** The parts of a quote resource the bench reads. */
export interface QuoteView {
  quoteId: string;
}

/** POST /v1/quotes (off-ramp: no `type`) with the seeded tenant's key and a bearer token; expects 201. */
export function quoteCreator(
  stack: LocalStack,
  client: HttpClient,
  accessToken: string,
  quote: QuoteRequest,
) {
  const body = JSON.stringify(quote);
  const headers = {
    ...tokenHeaders(stack, accessToken),
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
  };
  return async (): Promise<QuoteView> =>
    JSON.parse(
      await expectStatus(client.send(`${stack.baseUrl}/quotes`, { method: 'POST', headers, body }), 201),
    ) as QuoteView;
}

/** POST /v1/quotes as a load op: each request prices the same quote and stores a new one. */
export function createQuoteRoute(
  stack: LocalStack,
  client: HttpClient,
  accessToken: string,
  quote: QuoteRequest,
): Op {
  const create = quoteCreator(stack, client, accessToken, quote);
  return async () => {
    await create();
  };
}

/** The parts of a wallet resource the bench reads. */
export interface WalletView {
  id: string;
  publicKey: string;
  activationStatus: 'pending' | 'active' | 'failed';
}

/** POST /v1/wallets (an own USDC wallet) with the seeded tenant's key and a bearer token; expects 201. */
export function walletCreator(stack: LocalStack, client: HttpClient, accessToken: string) {
  let created = 0;
  return async (): Promise<WalletView> => {
    const body = JSON.stringify({ walletName: `bench ${++created}`, assetCode: 'USDC', ownAccount: true });
    const headers = {
      ...tokenHeaders(stack, accessToken),
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    };
    return JSON.parse(
      await expectStatus(client.send(`${stack.baseUrl}/wallets`, { method: 'POST', headers, body }), 201),
    ) as WalletView;
  };
}

/** GET /v1/wallets/{walletId} with the seeded tenant's key and a bearer token. */
export function walletReader(stack: LocalStack, client: HttpClient, accessToken: string) {
  const headers = tokenHeaders(stack, accessToken);
  return async (walletId: string): Promise<WalletView> =>
    JSON.parse(
      await expect200(client.send(`${stack.baseUrl}/wallets/${walletId}`, { method: 'GET', headers })),
    ) as WalletView;
}

/** POST /v1/wallets as a load op: each request creates a wallet, whose account the worker then opens. */
export function createWalletRoute(stack: LocalStack, client: HttpClient, accessToken: string): Op {
  const create = walletCreator(stack, client, accessToken);
  return async () => {
    await create();
  };
}

/** GET /v1/wallets/{walletId} as a load op. */
export function walletRoute(
  stack: LocalStack,
  client: HttpClient,
  accessToken: string,
  walletId: string,
): Op {
  const headers = tokenHeaders(stack, accessToken);
  return async () => {
    await expect200(client.send(`${stack.baseUrl}/wallets/${walletId}`, { method: 'GET', headers }));
  };
}

/** A bearer token for the seeded tenant, for the token-authenticated routes. */
export async function issueAccessToken(stack: LocalStack): Promise<string> {
  const client = httpClient(1);
  try {
    const { apiKey, clientId, clientSecret } = stack.seededTenant;
    const body = await expect200(
      client.send(`${stack.baseUrl}/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-auth': apiKey },
        body: JSON.stringify({ clientId, clientSecret }),
      }),
    );
    return (JSON.parse(body) as { accessToken: string }).accessToken;
  } finally {
    client.close();
  }
}
