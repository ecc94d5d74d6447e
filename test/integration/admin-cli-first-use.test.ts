// The admin CLI as a new platform engineer first meets it: what tenants there are, a mistyped option
// answered with the command's usage and the option meant, and `keys status` telling when each key
// secret last rotated (the first start rotates each). A real process against the test stack.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, it } from 'vitest';
import { addApiKey, createTenant } from '../../lib/admin/tenants.ts';

const run = promisify(execFile);
const admin = (...args: string[]) =>
  run(process.execPath, ['scripts/admin.ts', ...args], { env: process.env }).catch(
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

describe('admin CLI, first use', () => {
  it('lists tenants: each association, its applications, their keys and clients with their ages, no secret', async () => {
    const name = `Listed ${crypto.randomUUID()}`;
    const tenant = await createTenant({ name, environment: 'sandbox', kind: 'business' });
    const second = await addApiKey(tenant.applicationId);
    const { stdout } = await admin('tenant', 'list');
    for (const secret of [tenant.apiKey, second.apiKey, tenant.clientSecret])
      assert.ok(!stdout.includes(secret), 'a secret is printed');
    // biome-ignore lint/suspicious/noExplicitAny: asserted member by member.
    const listed = (JSON.parse(stdout) as any[]).find((association) => association.name === name);
    assert.equal(listed?.associationId, tenant.associationId);
    assert.equal(listed.environment, 'sandbox');
    const [application, ...others] = listed.applications;
    assert.equal(others.length, 0);
    assert.equal(application.applicationId, tenant.applicationId);
    assert.equal(application.apiKeys.length, 2);
    assert.deepEqual(
      application.apiKeys.map((key: { ageDays: number; revokedAt: null }) => [key.ageDays, key.revokedAt]),
      [
        [0, null],
        [0, null],
      ],
    );
    assert.equal(application.clients[0].clientId, tenant.clientId);
    // The seeded tenant is there too: the list is the table's, not this test's.
    const seeded = JSON.parse(process.env.TEST_SEEDED_TENANT ?? '{}') as { associationId: string };
    assert.ok(
      JSON.parse(stdout).some((a: { associationId: string }) => a.associationId === seeded.associationId),
    );
  });

  it('answers a mistyped option with the command’s usage and the option it most likely meant', async () => {
    const failed = (await admin('tenant', 'create', '--nmae', 'Acme')) as { code: number; stderr: string };
    assert.equal(failed.code, 2);
    assert.match(failed.stderr, /^Usage of tenant create:\n {2}tenant create --name <name>/);
    assert.match(failed.stderr, /\nUnknown option --nmae: did you mean --name\? \(npm run admin -- --help/);
    assert.doesNotMatch(failed.stderr, /'--nmae'|positional argument/, 'not the argument parser’s own text');
    const far = (await admin('keys', 'status', '--zzzzzz')) as { code: number; stderr: string };
    assert.equal(far.code, 2);
    assert.doesNotMatch(far.stderr, /did you mean/, 'nothing is near enough to be meant');
  });

  it('keys status: when each rotating key secret last rotated (the first start rotated each), none for the JWKS', async () => {
    const { stdout } = await admin('keys', 'status');
    const statuses = JSON.parse(stdout) as {
      secret: string;
      rotationEnabled: boolean;
      lastRotated: string | null;
    }[];
    const rotating = statuses.filter((status) => status.rotationEnabled);
    assert.equal(rotating.length, 4, 'the signing ring, the cursor key and two KEKs rotate');
    for (const { secret, lastRotated } of rotating) {
      assert.ok(lastRotated && Date.parse(lastRotated) <= Date.now(), `${secret} lastRotated ${lastRotated}`);
    }
    // The public JWKS is written by the signing ring's rotation, never rotated itself.
    assert.deepEqual(
      statuses.filter((status) => !status.rotationEnabled).map((status) => status.lastRotated),
      [null],
    );
  });
});
