// A key-material fetch that never answers must end in a 504 problem, not a hang or a 500.
// The function runs in this process against a real socket that accepts and never replies.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { newTenant, tokenFor } from '../support/api.ts';
import { type BlackHole, startBlackHole } from '../support/black-hole.ts';

describe('token verification when key material times out', () => {
  let blackHole: BlackHole;
  beforeAll(async () => {
    blackHole = await startBlackHole();
    process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = blackHole.url;
    process.env.KEY_FETCH_TIMEOUT_MS = '300';
  });
  afterAll(() => blackHole.close());

  it('answers 504 with a problem body', async () => {
    const tenant = await newTenant();
    // Issued by the stack (whose key material is reachable); verified here, where it is not.
    const token = await tokenFor(tenant);
    const { toApiGatewayEvent, lambdaContext } = await import('../../local/lambda-event.ts');
    const { handler } = await import('../../functions/api/assets.ts');
    const event = toApiGatewayEvent(
      {
        method: 'GET',
        url: '/v1/assets',
        headers: { 'x-service-auth': tenant.apiKey, authorization: `Bearer ${token}` },
        body: Buffer.alloc(0),
      },
      'GET /v1/assets',
      undefined,
    );
    const result = await handler(event, lambdaContext('assets'));
    assert.equal(result.statusCode, 504, result.body);
    assert.equal(result.headers?.['Content-Type'], 'application/problem+json');
    assert.ok(result.headers?.['X-Request-Id']);
    assert.match(JSON.parse(result.body ?? '{}').type, /\/gateway-timeout$/);
  });
});
