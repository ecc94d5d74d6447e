import { tenantScope } from '../db/keys.ts';
import { notFound } from '../http/problem.ts';
import type { Tenant } from '../http/types.ts';
import { findAsset, listAssetPage } from './repo.ts';

export const listAssets = (tenant: Tenant, page: { limit: number; cursor?: string | undefined }) =>
  listAssetPage(tenant.environment, { ...page, binding: { scope: tenantScope(tenant), query: 'assets' } });

export async function getAsset(tenant: Tenant, assetCode: string) {
  const asset = await findAsset(tenant.environment, assetCode);
  if (!asset) throw notFound(`No asset ${assetCode} in the registry.`);
  return asset;
}
