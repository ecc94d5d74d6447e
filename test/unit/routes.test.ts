import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { matchRoute, routeKeyOf, routes } from '../../lib/routes.ts';

describe('route matching', () => {
  it('matches every route of the table by its own template', () => {
    for (const route of routes) {
      const path = `/v1${route.path.replace(/\{(\w+)\}/g, 'X1')}`;
      const match = matchRoute(route.method, path);
      assert.equal(match.kind, 'route', path);
      if (match.kind === 'route') assert.equal(routeKeyOf(match.route), routeKeyOf(route));
    }
  });

  it('extracts and decodes path parameters', () => {
    const match = matchRoute('GET', '/v1/assets/us%44c');
    assert.equal(match.kind, 'route');
    if (match.kind === 'route') assert.deepEqual(match.pathParameters, { assetCode: 'usDc' });
  });

  it('tells a wrong method (with the allowed ones) from an unknown path', () => {
    assert.deepEqual(matchRoute('DELETE', '/v1/assets'), { kind: 'wrongMethod', allow: ['GET'] });
    assert.deepEqual(matchRoute('GET', '/v1/assets/a/b'), { kind: 'none' });
    assert.deepEqual(matchRoute('GET', '/assets'), { kind: 'none' });
  });

  it('tells a path that does not decode to UTF-8 from an unknown one, and never throws on it', () => {
    for (const path of [
      '/v1/assets/%FF',
      '/v1/assets/%',
      '/v1/assets/%zz',
      '/v1/wallets/%E0%A4%A',
      '/v1/x/%C0%AF',
    ])
      assert.deepEqual(matchRoute('GET', path), { kind: 'malformedPath' }, path);
  });
});
