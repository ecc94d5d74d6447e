// Secrets are read through Powertools Parameters against the stack's Secrets Manager stand-in: kept for
// SECRET_MAX_AGE_SECONDS, then read again, so a rotated secret reaches a warm function after that age.
// Each test reads a probe secret of its own, never the stack's key material.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { secretFileName } from '../../local/secrets-manager.ts';

describe('secrets through the Parameters cache', () => {
  const written: string[] = [];
  const writeProbe = (secretId: string, value: unknown) => {
    const file = join(process.env.TEST_DATA_DIR ?? '', 'secrets', secretFileName(secretId));
    writeFileSync(file, JSON.stringify(value), { mode: 0o600 });
    written.push(file);
  };
  beforeAll(() => {
    process.env.SECRET_MAX_AGE_SECONDS = '1';
  });
  afterAll(() => {
    for (const file of written) rmSync(file, { force: true });
  });

  it('keeps a secret for its max age, then picks up the rotated value', async () => {
    const { readSecretJson } = await import('../../lib/aws/secrets.ts');
    const secretId = `test/cache-probe-${randomUUID()}`;
    writeProbe(secretId, { key: 'first' });
    assert.deepEqual(await readSecretJson(secretId), { key: 'first' });

    writeProbe(secretId, { key: 'rotated' });
    assert.deepEqual(await readSecretJson(secretId), { key: 'first' }, 'served from the cache');
    assert.deepEqual(await readSecretJson(secretId, { forceFetch: true }), { key: 'rotated' });

    writeProbe(secretId, { key: 'rotated again' });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.deepEqual(await readSecretJson(secretId), { key: 'rotated again' }, 'read again after the age');
  });

  it('answers 503 for a secret that does not exist or is not JSON', async () => {
    const { readSecretJson } = await import('../../lib/aws/secrets.ts');
    await assert.rejects(readSecretJson(`test/missing-${randomUUID()}`), { status: 503 });
    const secretId = `test/not-json-${randomUUID()}`;
    const file = join(process.env.TEST_DATA_DIR ?? '', 'secrets', secretFileName(secretId));
    writeFileSync(file, '{not json', { mode: 0o600 });
    written.push(file);
    await assert.rejects(readSecretJson(secretId), { status: 503 });
  });
});
