// A function whose time runs out before its operation ends (a dependency that accepts and never answers)
// is ended early by Middy: the caller gets a 504 problem, as for any dependency that timed out, never a
// 500. The function runs in this process, its Horizon URL pointing at a socket that never replies, with
// half a second of Lambda time.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createdWalletId, newTenant, tokenFor } from '../support/api.ts';
import { type BlackHole, startBlackHole } from '../support/black-hole.ts';

describe('a function out of time', () => {
  let blackHole: BlackHole;
  beforeAll(async () => {
    blackHole = await startBlackHole();
    // Before anything in this process reads its configuration (the stack's gateway keeps the real ledger).
    process.env.HORIZON_URL_SANDBOX = blackHole.url;
  });
  afterAll(() => blackHole.close());

  it('answers 504 with a problem body, not 500', async () => {
    const tenant = await newTenant();
    const token = await tokenFor(tenant);
    const walletId = await createdWalletId(tenant, token, 'Slow ledger');
    const { toApiGatewayEvent, lambdaContext } = await import('../../local/lambda-event.ts');
    const { handler } = await import('../../functions/api/wallets.ts');
    const result = await handler(
      toApiGatewayEvent(
        {
          method: 'GET',
          url: `/v1/wallets/${walletId}`,
          headers: { 'x-service-auth': tenant.apiKey, authorization: `Bearer ${token}` },
          body: Buffer.alloc(0),
        },
        'GET /v1/wallets/{walletId}',
        { walletId: walletId },
      ),
      lambdaContext('wallets', 500),
    );
    assert.equal(result.statusCode, 504, result.body);
    assert.equal(result.headers?.['Content-Type'], 'application/problem+json');
    assert.ok(result.headers?.['X-Request-Id']);
    const problem = JSON.parse(result.body ?? '{}');
    assert.match(problem.type, /\/gateway-timeout$/);
    assert.match(problem.detail, /did not finish in time/);
  });
});
