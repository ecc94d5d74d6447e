// The asset registry as other domains and the asset routes use it.
import { tenantScope } from '../db/keys.ts';
import { notFound } from '../http/problem.ts';
import type { Environment, Tenant } from '../tenant.ts';
import { findAsset, listAssetPage, listNetworkNames } from './repo.ts';

export const listAssets = (tenant: Tenant, page: { limit: number; cursor?: string | undefined }) =>
  listAssetPage(tenant.environment, { ...page, binding: { scope: tenantScope(tenant), query: 'assets' } });

export async function getAsset(tenant: Tenant, assetCode: string) {
  const asset = await findAsset(tenant.environment, assetCode);
  if (!asset) throw notFound(`No asset ${assetCode} in the registry.`);
  return asset;
}

/** The registry's asset with this code (upper case), or undefined: for other domains' checks. */
export const findRegistryAsset = (environment: Environment, assetCode: string) =>
  findAsset(environment, assetCode);

/** The network names of an environment's registry (a CRYPTO destination must name one of them). */
export const registryNetworkNames = (environment: Environment) => listNetworkNames(environment);
