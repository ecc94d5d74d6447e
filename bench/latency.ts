// Closed-loop load: `concurrency` workers each send the next request as soon as their last one answered.
import { Agent, request } from 'node:http';
import type { LocalStack } from '../lib/local/stack.ts';
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

async function expectStatus(
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

const tokenHeaders = (stack: LocalStack, accessToken: string) => ({
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

/** A bearer token for the seeded tenant, for the assets and wallet routes. */
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
