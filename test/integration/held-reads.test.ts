// What every request reads and almost never changes (an API key, a bearer token's client, a registry
// asset) is kept per execution environment for REFERENCE_MAX_AGE_SECONDS (lib/db/held-reads.ts, issue
// #40): a warm function reads each once per bound, not once per request, and a revocation takes effect
// within the bound. In this file's process, against the stack's DynamoDB Local, with the bound set to
// 1 s (the test stack's own is 0: its other tests revoke and expect 401 at once). The reads are counted
// as they leave the process; nothing is timed, the wait only lets the bound pass.
import assert from 'node:assert/strict';
import { afterEach, beforeAll, describe, it } from 'vitest';
import type { Asset } from '../../lib/assets/schema.ts';
import { resetConfig } from '../../lib/config.ts';
import type { Problem } from '../../lib/http/problem.ts';
import { useOwnTable } from '../../local/stack.ts';
import { newTenant, tokenFor } from '../support/api.ts';
import { dynamoDbCallsDuring } from '../support/dynamodb-calls.ts';

type Auth = typeof import('../../lib/auth/service.ts');
type Admin = typeof import('../../lib/admin/tenants.ts');
type Assets = typeof import('../../lib/assets/service.ts');
type AssetRepo = typeof import('../../lib/assets/repo.ts');
type Seed = typeof import('../../lib/assets/registry-seed.ts');

const BOUND_SECONDS = 1;
const pastTheBound = () => new Promise((resolve) => setTimeout(resolve, BOUND_SECONDS * 1000 + 200));

/** GetItem requests this process sends while `work` runs. */
const getItemsDuring = async (work: () => Promise<unknown>): Promise<number> =>
  (await dynamoDbCallsDuring(work)).GetItem ?? 0;

const refusedWith = async (work: () => Promise<unknown>, status: number) => {
  const error = await work().then(
    () => undefined,
    (e: unknown) => e as Problem,
  );
  assert.equal(error?.status, status, `expected ${status}, got ${error?.status ?? 'no refusal'}`);
};

describe('reads held per execution environment (REFERENCE_MAX_AGE_SECONDS)', () => {
  let auth: Auth;
  let admin: Admin;
  let assets: Assets;
  let assetRepo: AssetRepo;
  let seedRegistries: Seed['seedRegistries'];

  beforeAll(async () => {
    process.env.REFERENCE_MAX_AGE_SECONDS = String(BOUND_SECONDS);
    resetConfig();
    auth = await import('../../lib/auth/service.ts');
    admin = await import('../../lib/admin/tenants.ts');
    assets = await import('../../lib/assets/service.ts');
    assetRepo = await import('../../lib/assets/repo.ts');
    ({ seedRegistries } = await import('../../lib/assets/registry-seed.ts'));
  });

  afterEach(() => {
    process.env.REFERENCE_MAX_AGE_SECONDS = String(BOUND_SECONDS);
    resetConfig();
  });

  it('reads an API key once for many requests within the bound', async () => {
    const tenant = await newTenant();
    const reads = await getItemsDuring(async () => {
      for (let i = 0; i < 5; i++) await auth.authenticateApplication(tenant.apiKey);
    });
    assert.equal(reads, 1);
  });

  it('refuses a revoked API key once the bound has passed', async () => {
    const tenant = await newTenant();
    await auth.authenticateApplication(tenant.apiKey);
    await admin.revokeApiKeyByValue(tenant.apiKey);
    await pastTheBound();
    await refusedWith(() => auth.authenticateApplication(tenant.apiKey), 401);
  });

  it("reads a bearer token's client once within the bound, and refuses it revoked once the bound has passed", async () => {
    const tenant = await newTenant();
    const token = await tokenFor(tenant);
    const caller = await auth.authenticateApplication(tenant.apiKey);
    const bearer = () => auth.authenticateBearer(`Bearer ${token}`, caller);
    const reads = await getItemsDuring(async () => {
      for (let i = 0; i < 5; i++) await bearer();
    });
    assert.equal(reads, 1);
    await admin.revokeClientById(tenant.clientId);
    await pastTheBound();
    await refusedWith(bearer, 401);
  });

  it('keeps no miss: an unknown key is read at every request', async () => {
    const unknown = 'pgw_sandbox_not-a-key-of-anyone';
    const reads = await getItemsDuring(async () => {
      for (let i = 0; i < 3; i++) await refusedWith(() => auth.authenticateApplication(unknown), 401);
    });
    assert.equal(reads, 3);
  });

  it('reads afresh every time with a bound of 0 (the test stack)', async () => {
    process.env.REFERENCE_MAX_AGE_SECONDS = '0';
    resetConfig();
    const tenant = await newTenant();
    const reads = await getItemsDuring(async () => {
      for (let i = 0; i < 3; i++) await auth.authenticateApplication(tenant.apiKey);
    });
    assert.equal(reads, 3);
  });

  it('sees a registry change once the bound has passed', async () => {
    // A table of this file's own: the stack's registry is every other file's.
    await useOwnTable('test-held-reads');
    const asset = { ...(seedRegistries.sandbox[0] as Asset), name: 'Held' };
    await assetRepo.putAsset('sandbox', asset);
    assert.equal((await assets.findRegistryAsset('sandbox', asset.assetCode))?.name, 'Held');
    const reads = await getItemsDuring(() => assets.findRegistryAsset('sandbox', asset.assetCode));
    assert.equal(reads, 0);
    await assetRepo.putAsset('sandbox', { ...asset, name: 'Held, renamed' });
    await pastTheBound();
    assert.equal((await assets.findRegistryAsset('sandbox', asset.assetCode))?.name, 'Held, renamed');
  });
});
