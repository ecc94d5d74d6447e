import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { credentialMatches, hashCredential, newApiKey, newClientSecret } from '../../lib/auth/credentials.ts';

describe('credentials', () => {
  it('makes distinct high-entropy keys that name their environment', () => {
    const keys = new Set(Array.from({ length: 100 }, () => newApiKey('sandbox')));
    assert.equal(keys.size, 100);
    for (const key of keys) assert.match(key, /^pgw_sandbox_[A-Za-z0-9_-]{43}$/);
    assert.match(newApiKey('production'), /^pgw_production_/);
  });

  it('matches a secret against its hash only', () => {
    const secret = newClientSecret();
    const hash = hashCredential(secret);
    assert.notEqual(hash, secret);
    assert.ok(credentialMatches(secret, hash));
    assert.ok(!credentialMatches(`${secret}x`, hash));
    assert.ok(!credentialMatches(secret, 'abcd'));
  });
});
