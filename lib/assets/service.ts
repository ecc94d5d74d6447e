// The asset registry as other domains and the asset routes use it.
import { heldReads } from '../db/held-reads.ts';
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

/** An environment's registry, kept per execution environment within REFERENCE_MAX_AGE_SECONDS (lib/db/held-reads.ts). */
const heldAsset = heldReads((key: `${Environment}/${string}`) => {
  const [environment, assetCode] = key.split('/') as [Environment, string];
  return findAsset(environment, assetCode);
});

/**
 * The registry's asset with this code (upper case), or undefined: for other domains' checks (a payment's,
 * a wallet's). A registry change reaches them within REFERENCE_MAX_AGE_SECONDS; the asset routes read afresh.
 */
export const findRegistryAsset = (environment: Environment, assetCode: string) =>
  heldAsset(`${environment}/${assetCode}`);

/** The network names of an environment's registry (a CRYPTO destination must name one of them). */
export const registryNetworkNames = (environment: Environment) => listNetworkNames(environment);
