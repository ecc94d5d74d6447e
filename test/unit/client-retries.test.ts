// The client's retry and token rules (clients/typescript/src/client.ts) against a real HTTP server on
// loopback that answers as the gateway does when it refuses: what is sent again, how often, and when
// a token is renewed.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, it } from 'vitest';
import { createGateway } from '../../clients/typescript/src/client.ts';

type Answer = { status: number; headers?: Record<string, string>; body?: unknown };
const hits: { method: string; path: string; body: string; authorization?: string }[] = [];
let answers: Answer[] = [];
let tokens = 0;
let expiresIn = 900;

const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/v1/auth/token') {
      tokens += 1;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ accessToken: `token-${tokens}`, expiresIn, tokenType: 'Bearer' }));
      return;
    }
    hits.push({ method: request.method ?? '', path, body, authorization: request.headers.authorization });
    const answer = answers.shift() ?? { status: 200, body: { ok: true } };
    response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    response.end(JSON.stringify(answer.body ?? { type: 'about:blank', title: 'x', status: answer.status }));
  });
});

let baseUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  hits.length = 0;
  answers = [];
  tokens = 0;
  expiresIn = 900;
});

const gateway = (maxAttempts = 4) =>
  createGateway({
    baseUrl,
    apiKey: 'pgw_sandbox_k',
    clientId: 'c',
    clientSecret: 's',
    maxAttempts,
    backoffMs: 1,
  });

describe('the client (clients/typescript)', () => {
  it('sends a 429 or 503 again after Retry-After, the same body, until it is answered', async () => {
    answers = [
      { status: 429, headers: { 'retry-after': '0' } },
      { status: 503, headers: { 'retry-after': '0' } },
    ];
    const { api } = gateway();
    const body = { walletName: 'Ops', assetCode: 'USDC', ownAccount: true } as never;
    const { response } = await api.POST('/wallets', { body });
    assert.equal(response.status, 200);
    assert.equal(hits.length, 3);
    assert.deepEqual(new Set(hits.map((hit) => hit.body)), new Set([JSON.stringify(body)]));
  });

  it('stops after maxAttempts and returns the last refusal', async () => {
    answers = Array.from({ length: 5 }, () => ({ status: 503, headers: { 'retry-after': '0' } }));
    const { response } = await gateway(3).api.GET('/assets');
    assert.equal(response.status, 503);
    assert.equal(hits.length, 3);
  });

  it('sends a payment again after a 504 (its transactionId makes it a replay), a read too', async () => {
    answers = [{ status: 504 }, { status: 202, body: { transactionRecordId: 'r' } }, { status: 504 }];
    const { api, newTransactionId } = gateway();
    const transactionId = newTransactionId();
    const body = { transactionId, sourceWalletId: 'a', destinationWalletId: 'b', amount: 1 } as never;
    const { response } = await api.POST('/payments/p2p/own', { body });
    assert.equal(response.status, 202);
    assert.equal(hits.length, 2);
    assert.ok(hits.every((hit) => JSON.parse(hit.body).transactionId === transactionId));
    assert.equal((await api.GET('/assets')).response.status, 200);
    assert.equal(hits.length, 4);
  });

  it('returns a 504 of a POST that a replay would do twice (a wallet), sent once', async () => {
    answers = [{ status: 504 }];
    const body = { walletName: 'Ops', assetCode: 'USDC', ownAccount: true } as never;
    const { response } = await gateway().api.POST('/wallets', { body });
    assert.equal(response.status, 504);
    assert.equal(hits.length, 1);
  });

  it('fetches one token for concurrent calls and renews it before it expires', async () => {
    const { api } = gateway();
    await Promise.all([api.GET('/assets'), api.GET('/assets'), api.GET('/assets')]);
    assert.equal(tokens, 1);
    assert.deepEqual(new Set(hits.map((hit) => hit.authorization)), new Set(['Bearer token-1']));

    expiresIn = 30; // inside the 60 s renewal margin: every call renews it
    const short = gateway();
    await short.api.GET('/assets');
    await short.api.GET('/assets');
    assert.equal(tokens, 3);
    assert.equal(hits.at(-1)?.authorization, 'Bearer token-3');
  });
});
