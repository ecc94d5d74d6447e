// Every log line of a request carries the Lambda context, the request id and the caller (never a
// credential), and none of it outlives the invocation. The shared Middy chain runs here, in this
// process, with operations that fail or warn on purpose, against the stack's tables and key material.
import assert from 'node:assert/strict';
import { afterAll, describe, it } from 'vitest';
import { routeKeyOf, routes } from '../../lib/routes.ts';
import { newTenant, tokenFor } from '../support/api.ts';
import { captureLogs, type LogLine } from '../support/logs.ts';

describe('log keys of a request', () => {
  const logs = captureLogs();
  afterAll(() => logs.restore());

  it('puts requestId, the caller and the Lambda context on every line, and drops them after', async () => {
    const { apiFunction, ok, operation } = await import('../../lib/api.ts');
    const { logger } = await import('../../lib/log.ts');
    const { toApiGatewayEvent, lambdaContext } = await import('../../local/lambda-event.ts');
    const handler = apiFunction('assets', {
      listAssets: operation({
        handle: async () => {
          throw new Error('forced failure');
        },
      }),
      getAsset: operation({
        handle: async () => {
          logger.warn('probe from a handler');
          return ok({});
        },
      }),
    });
    const invoke = async (
      tenant: { apiKey: string },
      token: string,
      operationName: 'listAssets' | 'getAsset',
      requestId: string,
    ) => {
      const route = routes.find((candidate) => candidate.operation === operationName);
      assert.ok(route);
      const url = route.path === '/assets' ? '/v1/assets' : '/v1/assets/USDC';
      const event = toApiGatewayEvent(
        {
          method: 'GET',
          url,
          headers: {
            'x-service-auth': tenant.apiKey,
            authorization: `Bearer ${token}`,
            'x-request-id': requestId,
          },
          body: Buffer.alloc(0),
        },
        routeKeyOf(route),
        route.path === '/assets' ? undefined : { assetCode: 'USDC' },
      );
      const context = lambdaContext('assets');
      const result = await handler(event, context);
      return { result, context };
    };
    const lineWith = (message: string): LogLine => {
      const line = logs.lines.findLast((candidate) => candidate.message === message);
      assert.ok(line, `a log line "${message}"`);
      return line;
    };

    const first = await newTenant();
    const firstToken = await tokenFor(first);
    const failed = await invoke(first, firstToken, 'listAssets', 'log-keys-first-request');
    assert.equal(failed.result.statusCode, 500);
    const errorLine = lineWith('Unhandled error');
    assert.equal(errorLine.level, 'ERROR');
    assert.equal(errorLine.requestId, 'log-keys-first-request');
    assert.equal(errorLine.applicationId, first.applicationId);
    assert.equal(errorLine.environment, 'sandbox');
    assert.equal(errorLine.associationId, first.associationId);
    assert.equal(errorLine.function_name, 'assets');
    assert.equal(errorLine.function_request_id, failed.context.awsRequestId);
    const printed = JSON.stringify(errorLine);
    for (const credential of [first.apiKey, first.clientSecret, firstToken]) {
      assert.ok(!printed.includes(credential), 'no credential on the line');
    }

    // Between invocations the request's keys are gone.
    logger.warn('probe between invocations');
    const between = lineWith('probe between invocations');
    for (const key of ['requestId', 'applicationId', 'environment', 'associationId']) {
      assert.equal(between[key], undefined, `${key} between invocations`);
    }

    const second = await newTenant();
    const warned = await invoke(second, await tokenFor(second), 'getAsset', 'log-keys-second-request');
    assert.equal(warned.result.statusCode, 200);
    const probe = lineWith('probe from a handler');
    assert.equal(probe.requestId, 'log-keys-second-request');
    assert.equal(probe.applicationId, second.applicationId);
    assert.equal(probe.associationId, second.associationId);
    assert.equal(probe.function_request_id, warned.context.awsRequestId);
  });
});
