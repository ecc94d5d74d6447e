// With ORIGIN_VERIFY_SECRET_ID set (as in AWS, infra/constructs/edge.ts), a request must carry the
// X-Origin-Verify token CloudFront adds: one sent around CloudFront, to the execute-api endpoint, is
// refused before its route or credentials are looked at. The functions run in this process against the
// stack's Secrets Manager stand-in; the stack itself (whose gateway is the local one) checks nothing.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ORIGIN_VERIFY_HEADER } from '../../lib/http/origin-verify.ts';
import { secretFileName } from '../../local/secrets-manager.ts';
import { newTenant, tokenFor } from '../support/api.ts';

const token = randomBytes(32).toString('hex');
const secretId = `test/origin-verify-${randomUUID()}`;
const file = join(process.env.TEST_DATA_DIR ?? '', 'secrets', secretFileName(secretId));

async function invoke(
  fn: 'assets' | 'fallback',
  url: string,
  routeKey: string,
  headers: Record<string, string>,
): Promise<APIGatewayProxyStructuredResultV2> {
  const { lambdaContext, toApiGatewayEvent } = await import('../../local/lambda-event.ts');
  const { handler } = (await import(`../../functions/api/${fn}.ts`)) as {
    handler: (event: unknown, context: unknown) => Promise<APIGatewayProxyStructuredResultV2>;
  };
  const event = toApiGatewayEvent(
    { method: 'GET', url, headers, body: Buffer.alloc(0) },
    routeKey,
    undefined,
  );
  return handler(event, lambdaContext(fn));
}

describe('the origin check (X-Origin-Verify)', () => {
  beforeAll(() => {
    writeFileSync(file, JSON.stringify({ generation: 1, token }), { mode: 0o600 });
    // Before any function module loads: each reads its configuration once, at cold start.
    process.env.ORIGIN_VERIFY_SECRET_ID = secretId;
  });
  afterAll(() => rmSync(file, { force: true }));

  it('refuses a request without the header with a 403 problem, before authentication', async () => {
    // No credentials at all: without the origin check this would be a 401.
    const result = await invoke('assets', '/v1/assets', 'GET /v1/assets', {});
    assert.equal(result.statusCode, 403, result.body);
    assert.equal(result.headers?.['Content-Type'], 'application/problem+json');
    const body = JSON.parse(result.body ?? '{}');
    assert.match(body.type, /\/forbidden$/);
    assert.match(body.detail, /published address/);
    assert.equal(body.requestId, result.headers?.['X-Request-Id']);
  });

  it('refuses a wrong token, and one that merely starts like the right one', async () => {
    for (const presented of ['not-the-token', token.slice(0, 16), `${token}x`]) {
      const result = await invoke('assets', '/v1/assets', 'GET /v1/assets', {
        [ORIGIN_VERIFY_HEADER]: presented,
      });
      assert.equal(result.statusCode, 403, presented);
    }
  });

  it('lets the token through to authentication and the route', async () => {
    const tenant = await newTenant();
    const bearer = await tokenFor(tenant);
    const withoutCredentials = await invoke('assets', '/v1/assets', 'GET /v1/assets', {
      [ORIGIN_VERIFY_HEADER]: token,
    });
    assert.equal(withoutCredentials.statusCode, 401, 'past the origin check, authentication decides');
    const served = await invoke('assets', '/v1/assets', 'GET /v1/assets', {
      [ORIGIN_VERIFY_HEADER]: token,
      'x-service-auth': tenant.apiKey,
      authorization: `Bearer ${bearer}`,
    });
    assert.equal(served.statusCode, 200, served.body);
  });

  it('during a rotation, passes the new and the previous token, and refuses the one before those', async () => {
    const withToken = async (presented: string) =>
      (await invoke('assets', '/v1/assets', 'GET /v1/assets', { [ORIGIN_VERIFY_HEADER]: presented }))
        .statusCode;
    // Replaced as CloudFormation replaces a generated value: a new AWSCURRENT, the old one AWSPREVIOUS.
    const client = new SecretsManagerClient({});
    const rotate = async (generation: number) => {
      const next = randomBytes(32).toString('hex');
      await client.send(
        new PutSecretValueCommand({
          SecretId: secretId,
          SecretString: JSON.stringify({ generation, token: next }),
        }),
      );
      return next;
    };
    // A function re-reads the tokens on an unknown one at most once a second (lib/api.ts): let that pass,
    // as it has by the time CloudFront sends a new token after a deploy.
    const rereadAllowed = () => new Promise((resolve) => setTimeout(resolve, 1100));
    try {
      assert.equal(await withToken(token), 401, 'the first token, held by the warm function');
      const second = await rotate(2);
      await rereadAllowed();
      assert.equal(await withToken(second), 401, 'the new token, from edges that have switched');
      assert.equal(await withToken(token), 401, 'the previous token, from edges that have not');

      const third = await rotate(3);
      await rereadAllowed();
      assert.equal(await withToken(third), 401);
      assert.equal(await withToken(second), 401);
      await rereadAllowed();
      assert.equal(await withToken(token), 403, 'two generations old: refused, even after a re-read');
    } finally {
      client.destroy();
    }
  });

  it('leaves the fallback alone: it answers 404/405 from the route table whoever asks', async () => {
    const result = await invoke('fallback', '/v1/nothing-here', '$default', {});
    assert.equal(result.statusCode, 404, result.body);
  });
});
