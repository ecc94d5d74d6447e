// Key rotation as the platform team runs it: `npm run admin -- keys rotate` calls RotateSecret, and the
// Secrets Manager stand-in runs the rotation function (functions/rotation/keys.ts) step by step, as AWS
// invokes it. What the readers then see: a KEK ring that grew by one key while every earlier sealed
// value still opens, a cursor key whose predecessor still opens cursors, and each environment's KEK
// rotating alone.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  DescribeSecretCommand,
  GetSecretValueCommand,
  RotateSecretCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { describe, it } from 'vitest';
import { rotationStep } from '../../lib/keys/rotation.ts';
import { type KekSecret, parseKekRing, sealBytes } from '../../lib/secret-box.ts';
import { secretNames } from '../../lib/secret-names.ts';
import { secretFileName, startLocalSecretsManager } from '../../local/secrets-manager.ts';

const run = promisify(execFile);
const names = secretNames('test');

async function admin(...args: string[]) {
  const { stdout } = await run(process.execPath, ['scripts/admin.ts', ...args], { env: process.env });
  return JSON.parse(stdout);
}
const secretFile = (name: string) =>
  JSON.parse(readFileSync(join(process.env.TEST_DATA_DIR ?? '', 'secrets', secretFileName(name)), 'utf8'));

describe('key rotation through Secrets Manager', () => {
  it("writes the first value of a secret created empty, as a new stage's deploy does", async () => {
    const stage = 'fresh';
    const kek = secretNames(stage).kek.production;
    const dir = mkdtempSync(join(tmpdir(), 'fresh-secrets-'));
    let client: SecretsManagerClient | undefined;
    const standIn = await startLocalSecretsManager(dir, 0, {
      declared: [kek],
      rotation: {
        secrets: [kek],
        invoke: (event) =>
          rotationStep(event, { client: client as SecretsManagerClient, stage, jwksSecretId: undefined }),
      },
    });
    client = new SecretsManagerClient({ endpoint: standIn.endpoint });
    try {
      // Empty: no current version, so nothing can be read, sealed or opened with it.
      await assert.rejects(client.send(new GetSecretValueCommand({ SecretId: kek })), {
        name: 'ResourceNotFoundException',
      });
      const { VersionId } = await client.send(new RotateSecretCommand({ SecretId: kek }));
      const described = await client.send(new DescribeSecretCommand({ SecretId: kek }));
      assert.deepEqual(described.VersionIdsToStages, { [VersionId as string]: ['AWSCURRENT'] });
      const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: kek }));
      const ring = parseKekRing(JSON.parse(SecretString ?? ''));
      assert.equal(ring.current.kid, 'k1');
      assert.equal(ring.current.key.length, 32);
    } finally {
      client.destroy();
      await standIn.stop();
    }
  });

  it('rotates a KEK: one key more, every earlier key kept, the other environment untouched', async () => {
    const secretBox = await import('../../lib/secret-box.ts');
    // Sealed (and the ring cached in this process) before the rotation.
    const before = await secretBox.seal('sandbox', 'owner-before', Buffer.from('before'));
    const ringBefore = secretFile(names.kek.sandbox) as KekSecret;
    const productionBefore = secretFile(names.kek.production);

    const rotated = await admin('keys', 'rotate', '--secret', 'kek', '--environment', 'sandbox');
    assert.equal(rotated.secret, names.kek.sandbox);
    assert.match(rotated.versionId, /^[\w-]{32,64}$/);

    const ringAfter = secretFile(names.kek.sandbox) as KekSecret;
    assert.equal(ringAfter.keys.length, ringBefore.keys.length + 1);
    assert.deepEqual(ringAfter.keys.slice(0, -1), ringBefore.keys, 'every earlier key kept as it was');
    assert.equal(ringAfter.current, ringAfter.keys.at(-1)?.kid);
    assert.notEqual(ringAfter.current, ringBefore.current);
    assert.deepEqual(secretFile(names.kek.production), productionBefore);

    // Sealed under the new key by a reader that has it (another function instance, say): this process
    // still holds the old ring, meets an unknown kid, reads the ring again and opens it.
    const after = sealBytes(parseKekRing(ringAfter), 'owner-after', Buffer.from('after'));
    assert.equal(after.kid, ringAfter.current);
    assert.equal((await secretBox.open('sandbox', 'owner-after', after)).toString(), 'after');
    assert.equal((await secretBox.open('sandbox', 'owner-before', before)).toString(), 'before');
    // Never under the other environment's key.
    await assert.rejects(secretBox.open('production', 'owner-after', after), secretBox.CustodyError);
  });

  it('rotates the cursor key: cursors handed out before still open, new ones use the new key', async () => {
    process.env.SECRET_MAX_AGE_SECONDS = '1';
    const { resetConfig } = await import('../../lib/config.ts');
    resetConfig();
    const cursors = await import('../../lib/db/cursor.ts');
    const binding = { scope: 'T#sandbox#a', query: 'q' };
    const issued = await cursors.encodeCursor(binding, { at: 1 });
    const keyBefore = secretFile(names.cursorKey).key;

    await admin('keys', 'rotate', '--secret', 'cursor-key');
    const secret = secretFile(names.cursorKey);
    assert.equal(secret.previous, keyBefore);
    assert.notEqual(secret.key, keyBefore);

    await new Promise((resolve) => setTimeout(resolve, 1100)); // past the cache age: the new secret
    assert.deepEqual(await cursors.decodeCursor(issued, binding), { at: 1 });
    const fresh = await cursors.encodeCursor(binding, { at: 2 });
    assert.deepEqual(cursors.cursorKeysOf({ key: secret.key }).length, 1);
    assert.deepEqual(await cursors.decodeCursor(fresh, binding), { at: 2 });
  });

  it('reports every key secret with a current version, and rotates none but the rotated ones', async () => {
    const status = await admin('keys', 'status');
    assert.deepEqual(
      status.map((s: { secret: string }) => s.secret),
      [names.signingKeys, names.tokenJwks, names.cursorKey, names.kek.sandbox, names.kek.production],
    );
    for (const entry of status) {
      assert.ok(entry.currentVersion, `${entry.secret} has a value`);
      assert.equal(entry.pendingVersion, null);
      assert.equal(entry.rotationEnabled, entry.secret !== names.tokenJwks, entry.secret);
    }
    const client = new SecretsManagerClient({});
    await assert.rejects(client.send(new RotateSecretCommand({ SecretId: names.tokenJwks })), {
      name: 'InvalidRequestException',
    });
    const described = await client.send(new DescribeSecretCommand({ SecretId: names.kek.production }));
    assert.deepEqual(Object.values(described.VersionIdsToStages ?? {}), [['AWSCURRENT']]);
    client.destroy();
  });
});
