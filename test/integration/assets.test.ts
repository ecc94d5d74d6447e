import assert from 'node:assert/strict';
import { beforeAll, describe, it } from 'vitest';
import type { NewTenant } from '../../lib/admin/tenants.ts';
import { seedRegistries } from '../../lib/assets/registry-seed.ts';
import { call, newTenant, tokenFor } from '../support/api.ts';

describe('assets', () => {
  let tenant: NewTenant;
  let token: string;
  let other: NewTenant;
  let otherToken: string;
  const get = (path: string, as: 'tenant' | 'other' = 'tenant') =>
    as === 'tenant'
      ? call(path, { apiKey: tenant.apiKey, token })
      : call(path, { apiKey: other.apiKey, token: otherToken });

  beforeAll(async () => {
    [tenant, other] = await Promise.all([newTenant(), newTenant()]);
    [token, otherToken] = await Promise.all([tokenFor(tenant), tokenFor(other)]);
  });

  it("lists the environment's registry with code and issuer", async () => {
    const response = await get('/assets');
    assert.equal(response.status, 200);
    const codes = response.body.data.map((a: { assetCode: string }) => a.assetCode);
    // Other tests may load more entries into the shared registry; the seeded ones are always there.
    for (const seeded of seedRegistries.sandbox)
      assert.ok(codes.includes(seeded.assetCode), seeded.assetCode);
    const usdc = response.body.data.find((a: { assetCode: string }) => a.assetCode === 'USDC');
    // Sandbox assets are issued by the platform's own local issuer accounts (the ledger's genesis).
    const { platformAccount } = await import('../../lib/ledger/platform-accounts.ts');
    assert.equal(usdc.assetIssuer, (await platformAccount('sandbox', 'issuer:USDC')).publicKey);
    assert.equal(usdc.networkName, 'stellar-testnet');
    assert.deepEqual(response.body.pagination, { nextCursor: null, hasMore: false });
  });

  it('serves the production registry to a production application', async () => {
    const production = await newTenant('production');
    const response = await call('/assets/USDC', {
      apiKey: production.apiKey,
      token: await tokenFor(production),
    });
    assert.equal(response.status, 200);
    assert.equal(
      response.body.assetIssuer,
      seedRegistries.production.find((a) => a.assetCode === 'USDC')?.assetIssuer,
    );
    assert.equal(response.body.networkName, 'stellar-pubnet');
  });

  it('pages through the registry with limit and cursor, every asset once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=1&cursor=${encodeURIComponent(cursor)}` : '?limit=1';
      const response = await get(`/assets${query}`);
      assert.equal(response.status, 200);
      assert.equal(response.body.data.length, 1);
      seen.push(response.body.data[0].assetCode);
      cursor = response.body.pagination.nextCursor;
      assert.equal(response.body.pagination.hasMore, cursor !== null);
      pages++;
    } while (cursor && pages < 50);
    const all = (await get('/assets?limit=100')).body.data.map((a: { assetCode: string }) => a.assetCode);
    assert.deepEqual(seen.sort(), all.sort());
    assert.equal(new Set(seen).size, seen.length, 'no asset twice');
  });

  it('treats a limit above 100 as 100 and refuses non-numeric or non-positive limits', async () => {
    // The registry holds fewer than 100 assets, so the cap itself shows only on a longer list (see
    // beneficiaries.test.ts); here a limit of 1000 must answer exactly the page a limit of 100 does.
    const capped = await get('/assets?limit=100');
    const above = await get('/assets?limit=1000');
    assert.equal(above.status, 200, JSON.stringify(above.body));
    assert.deepEqual(above.body, capped.body);
    assert.ok(above.body.data.length > 1);
    for (const limit of ['0', '-1', 'abc', '1.5', '']) {
      const response = await get(`/assets?limit=${limit}`);
      assert.equal(response.status, 400, `limit=${limit}`);
      assert.equal(response.body.errors[0].field, 'limit');
    }
  });

  it("refuses a forged cursor and another tenant's cursor with 400", async () => {
    const first = await get('/assets?limit=1');
    const cursor = first.body.pagination.nextCursor as string;
    assert.ok(cursor);
    const flipped = `${cursor.slice(0, -2)}${cursor.at(-2) === 'A' ? 'B' : 'A'}${cursor.at(-1)}`;
    for (const bad of [flipped, 'garbage', Buffer.from('{"position":{"pk":"x"}}').toString('base64url')]) {
      const response = await get(`/assets?limit=1&cursor=${encodeURIComponent(bad)}`);
      assert.equal(response.status, 400);
      assert.equal(response.body.errors[0].field, 'cursor');
    }
    const transplanted = await get(`/assets?limit=1&cursor=${encodeURIComponent(cursor)}`, 'other');
    assert.equal(transplanted.status, 400);
    assert.equal(transplanted.body.errors[0].field, 'cursor');
  });

  it('refuses unknown query members with 400 naming them', async () => {
    const response = await get('/assets?colour=blue');
    assert.equal(response.status, 400);
    assert.deepEqual(response.body.errors, [{ field: 'colour', message: 'is not accepted' }]);
  });

  it('reads one asset case-insensitively', async () => {
    for (const code of ['USDC', 'usdc', 'UsDc']) {
      const response = await get(`/assets/${code}`);
      assert.equal(response.status, 200, code);
      assert.equal(response.body.assetCode, 'USDC');
    }
  });

  it('answers an unknown asset with 404 and a malformed code with 400', async () => {
    const missing = await get('/assets/NOPE');
    assert.equal(missing.status, 404);
    assert.match(missing.body.type, /\/not-found$/);
    assert.equal(missing.headers.get('content-type'), 'application/problem+json');
    const malformed = await get('/assets/US-DC');
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.errors[0].field, 'assetCode');
    assert.equal((await get('/assets/ABCDEFGHIJKLM')).status, 400);
  });
});
