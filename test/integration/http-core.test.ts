import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { baseUrl, call } from '../support/api.ts';

describe('the HTTP core', () => {
  it('answers unknown routes, and every removed route, with the same 404 problem', async () => {
    const removed = [
      '/intents',
      '/intents/abc',
      '/payments',
      '/payments/p2p',
      '/payments/swap',
      '/wallet-types',
      '/networks',
    ];
    for (const path of [...removed, '/nope']) {
      const response = await call(path, { apiKey: 'irrelevant' });
      assert.equal(response.status, 404, path);
      assert.equal(response.headers.get('content-type'), 'application/problem+json');
      assert.ok(response.headers.get('x-request-id'));
      assert.deepEqual(Object.keys(response.body).sort(), [
        'detail',
        'instance',
        'requestId',
        'status',
        'title',
        'type',
      ]);
      assert.match(response.body.type, /\/not-found$/);
      assert.equal(response.body.instance, `/v1${path}`);
    }
  });

  it('says so when a path without /v1 is a route with it', async () => {
    const origin = baseUrl().replace(/\/v1$/, '');
    const bare = await fetch(`${origin}/wallets`);
    assert.equal(bare.status, 404);
    assert.equal(
      ((await bare.json()) as { detail: string }).detail,
      "No route GET /wallets: the API's routes start with /v1, GET /v1/wallets is one.",
    );
    // A POST likewise; a path that is no route under /v1, or not with this method, says nothing more.
    const post = (await (await fetch(`${origin}/auth/token`, { method: 'POST' })).json()) as {
      detail: string;
    };
    assert.match(post.detail, /POST \/v1\/auth\/token is one\.$/);
    const nowhere = (await (await fetch(`${origin}/nope`)).json()) as { detail: string };
    assert.equal(nowhere.detail, 'No route GET /nope.');
    const otherMethod = (await (await fetch(`${origin}/auth/token`)).json()) as { detail: string };
    assert.equal(otherMethod.detail, 'No route GET /auth/token.');
  });

  it('answers a known path with a wrong method with 405 and Allow', async () => {
    const response = await call('/assets', { method: 'POST', body: {} });
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('allow'), 'GET');
    assert.match(response.body.type, /\/method-not-allowed$/);
    const token = await call('/auth/token', { method: 'GET' });
    assert.equal(token.status, 405);
    assert.equal(token.headers.get('allow'), 'POST');
  });

  it('keeps a safe incoming X-Request-Id and replaces an unsafe one', async () => {
    const safe = await call('/assets', { headers: { 'x-request-id': 'trace-1234-abcd' } });
    assert.equal(safe.headers.get('x-request-id'), 'trace-1234-abcd');
    assert.equal(safe.body.requestId, 'trace-1234-abcd');
    const unsafe = await call('/assets', { headers: { 'x-request-id': 'bad id with spaces and <html>' } });
    assert.notEqual(unsafe.headers.get('x-request-id'), 'bad id with spaces and <html>');
    assert.match(unsafe.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  it('serves /healthz outside /v1', async () => {
    const response = await fetch(`${baseUrl().replace(/\/v1$/, '')}/healthz`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { status: 'ok' });
    // Only outside /v1: under the prefix it is an unknown route like any other.
    assert.equal((await call('/healthz')).status, 404);
  });
});

describe('the gateway', () => {
  it('refuses a body above API Gateway’s 10 MB with a 413 problem and X-Request-Id', async () => {
    const response = await call('/auth/token', {
      method: 'POST',
      apiKey: 'any',
      body: 'x'.repeat(11 * 1024 * 1024),
    });
    assert.equal(response.status, 413);
    assert.equal(response.headers.get('content-type'), 'application/problem+json');
    assert.ok(response.headers.get('x-request-id'));
    assert.match(response.body.type, /\/payload-too-large$/);
  });
});
