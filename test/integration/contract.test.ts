// The contract check itself: it runs on every call() and catches a response the document does not
// allow (a wrong or leaking body, an undocumented status, the wrong media type), on routes and on
// requests no route matches alike.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { as, baseUrl, type Caller, call, newCaller } from '../support/api.ts';
import { type Contract, type ReceivedResponse, stackContract } from '../support/contract.ts';

/** A response as the check sees it: an X-Request-Id, as every answer has, unless `headers` says otherwise. */
const received = (
  status: number,
  body: unknown,
  contentType = 'application/json',
  headers: Record<string, string> = { 'x-request-id': 'b7e2f0c4-1d3a-4e5b' },
): ReceivedResponse => ({ status, body, headers: new Headers({ 'content-type': contentType, ...headers }) });

describe('the contract check', () => {
  let contract: Contract;
  let caller: Caller;
  beforeAll(async () => {
    [contract, caller] = await Promise.all([stackContract(baseUrl()), newCaller()]);
  });

  it('accepts the real answers of a route, a problem and an unknown route', async () => {
    const page = await as(caller, '/assets?limit=2');
    assert.equal(page.status, 200);
    assert.deepEqual(contract.violations('GET', `${baseUrl()}/assets?limit=2`, received(200, page.body)), []);
    const missing = await as(caller, '/assets/NOPE');
    assert.equal(missing.status, 404);
    const problem = received(404, missing.body, 'application/problem+json');
    assert.deepEqual(contract.violations('GET', `${baseUrl()}/assets/NOPE`, problem), []);
    const unknown = await call('/nope');
    assert.equal(unknown.status, 404);
    assert.deepEqual(
      contract.violations(
        'GET',
        `${baseUrl()}/nope`,
        received(404, unknown.body, 'application/problem+json'),
      ),
      [],
    );
  });

  it('catches a wrong body: a missing member, a leaking member, a wrong type', async () => {
    const { body } = await as(caller, '/assets');
    const url = `${baseUrl()}/assets`;
    const [first] = body.data;
    const check = (changed: unknown) => contract.violations('GET', url, received(200, changed)).join('\n');
    assert.match(
      check({ data: body.data }),
      /GET \/assets 200: body \/ must have required property 'pagination'/,
    );
    assert.match(
      check({ ...body, data: [{ ...first, sealedSecret: 'x' }] }),
      /body \/data\/0 must NOT have additional properties/,
    );
    assert.match(
      check({ ...body, data: [{ ...first, decimals: '7' }] }),
      /body \/data\/0\/decimals must be integer/,
    );
  });

  it('catches an undocumented status, the wrong media type and a problem of another kind', async () => {
    const { body } = await as(caller, '/assets/NOPE');
    const url = `${baseUrl()}/assets/NOPE`;
    assert.deepEqual(contract.violations('GET', url, received(418, body, 'application/problem+json')), [
      'GET /assets/{assetCode} does not document status 418',
    ]);
    assert.match(
      contract.violations('GET', url, received(404, body, 'application/json')).join(),
      /answers application\/problem\+json, not "application\/json"/,
    );
    const conflict = { ...body, type: body.type.replace(/not-found$/, 'conflict') };
    assert.match(
      contract.violations('GET', url, received(404, conflict, 'application/problem+json')).join(),
      /body \/type must match pattern/,
    );
    assert.match(
      contract.violations('GET', `${baseUrl()}/nope`, received(401, body, 'application/problem+json')).join(),
      /an unmatched request \(GET \/v1\/nope\) does not document status 401/,
    );
  });

  it('catches a missing required header', async () => {
    const url = `${baseUrl()}/assets`;
    const wrongMethod = await as(caller, '/assets', { method: 'DELETE' });
    assert.equal(wrongMethod.status, 405);
    const real = Object.fromEntries(wrongMethod.headers);
    const answered = (headers: Record<string, string>) =>
      contract.violations(
        'DELETE',
        url,
        received(405, wrongMethod.body, 'application/problem+json', headers),
      );
    assert.deepEqual(answered(real), []);
    const { allow: _dropped, ...withoutAllow } = real;
    const at = 'an unmatched request (DELETE /v1/assets) 405';
    assert.deepEqual(answered(withoutAllow), [`${at}: header Allow is missing`]);
    assert.deepEqual(answered({}), [
      `${at}: header X-Request-Id is missing`,
      `${at}: header Allow is missing`,
    ]);
  });

  describe('in call()', () => {
    // A stand-in for the stack that answers what the document does not allow.
    let fake: Server;
    let realBaseUrl: string;
    beforeAll(async () => {
      realBaseUrl = baseUrl();
      fake = createServer((req, res) => {
        const json = (status: number, body: unknown, type = 'application/json') =>
          res.writeHead(status, { 'Content-Type': type }).end(JSON.stringify(body));
        if (req.url === '/v1/assets') return json(200, { data: [] });
        if (req.url === '/v1/assets/USDC') return json(418, { teapot: true });
        return json(404, { message: 'Not Found' });
      });
      await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
      process.env.TEST_BASE_URL = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`;
    });
    afterAll(() => {
      process.env.TEST_BASE_URL = realBaseUrl;
      fake.close();
    });

    it('fails the test on a wrong body, an undocumented status, and a wrong answer to an unknown route', async () => {
      await assert.rejects(
        call('/assets'),
        /breaks the OpenAPI contract[\s\S]*required property 'pagination'/,
      );
      await assert.rejects(call('/assets/USDC'), /does not document status 418/);
      await assert.rejects(call('/nope'), /unmatched request[\s\S]*answers application\/problem\+json/);
    });
  });
});
