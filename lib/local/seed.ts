// What every local start puts in the (empty, in-memory) table: the asset registries and one sandbox tenant.
import { createTenant } from '../admin/tenants.ts';
import { seedRegistries } from '../assets/registry-seed.ts';
import { putAsset } from '../assets/repo.ts';
import type { Environment } from '../http/types.ts';

export async function seedLocalData() {
  for (const [environment, assets] of Object.entries(seedRegistries)) {
    for (const asset of assets) await putAsset(environment as Environment, asset);
  }
  return createTenant({ name: 'Local Sandbox Business', environment: 'sandbox', kind: 'business' });
}
