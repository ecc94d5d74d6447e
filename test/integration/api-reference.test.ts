// The local gateway serves the OpenAPI document and the docs page outside /v1, with every file the
// page needs, and nothing from another host (the page works offline).
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { openApiDocument } from '../../openapi/document.ts';
import { baseUrl } from '../support/api.ts';

const origin = () => new URL(baseUrl()).origin;

describe('the API reference', () => {
  it('serves the generated document at /openapi.json', async () => {
    const response = await fetch(`${origin()}/openapi.json`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.deepEqual(await response.json(), JSON.parse(JSON.stringify(openApiDocument())));
  });

  it('serves /docs with every script and style it loads, all from this gateway', async () => {
    const page = await fetch(`${origin()}/docs`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    assert.ok(assets.length >= 3, html);
    for (const asset of assets) {
      assert.match(asset, /^\/docs\//, `${asset} is not served by the gateway`);
      const response = await fetch(`${origin()}${asset}`);
      assert.equal(response.status, 200, asset);
      const text = asset.endsWith('.png') ? '' : await response.text();
      if (asset.endsWith('init.js')) {
        assert.match(text, /url: "\/openapi\.json"/);
        assert.match(text, /validatorUrl: null/);
      }
    }
  });

  it('serves only the listed files under /docs; anything else is the API’s 404', async () => {
    for (const path of [
      '/docs/package.json',
      '/docs/constructor',
      '/docs/..%2Fpackage.json',
      '/openapi.yaml',
    ]) {
      const response = await fetch(`${origin()}${path}`);
      assert.equal(response.status, 404, path);
      assert.equal(response.headers.get('content-type'), 'application/problem+json', path);
    }
  });
});
