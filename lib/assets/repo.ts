// The asset registry: platform data, one partition per environment (lib/db/keys.ts keys.asset).
import { entity } from '../db/entity.ts';
import { getRecord, putIf, readAllPages } from '../db/items.ts';
import { keys } from '../db/keys.ts';
import { type PageRequest, queryPage } from '../db/paginate.ts';
import type { Environment } from '../tenant.ts';
import type { Asset } from './schema.ts';

/** A registry entry as stored: the asset and the environment whose registry holds it. */
type AssetItem = Asset & { environment: Environment };

const assetEntity = entity<AssetItem>({
  type: 'asset',
  keyOf: (record) => keys.asset(record.environment, record.assetCode),
});

const toAsset = ({ assetCode, assetIssuer, assetType, name, decimals, networkName }: Asset): Asset => ({
  assetCode,
  assetIssuer,
  assetType,
  name,
  decimals,
  networkName,
});

export async function findAsset(environment: Environment, assetCode: string): Promise<Asset | undefined> {
  const record = await getRecord<Asset>(keys.asset(environment, assetCode));
  return record && toAsset(record);
}

export const listAssetPage = (environment: Environment, page: PageRequest) =>
  queryPage(
    {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.assetRegistry(environment) },
    },
    page,
    (item) => ({ pk: item.pk, sk: item.sk }),
    (item) => toAsset(item as unknown as Asset),
  );

/** The network names of an environment's registry. */
export async function listNetworkNames(environment: Environment): Promise<Set<string>> {
  const items = await readAllPages<{ networkName?: unknown }>({
    KeyConditionExpression: 'pk = :pk',
    ProjectionExpression: 'networkName',
    ExpressionAttributeValues: { ':pk': keys.assetRegistry(environment) },
  });
  return new Set(items.flatMap((item) => (typeof item.networkName === 'string' ? [item.networkName] : [])));
}

/** Adds or replaces a registry entry (the registry is platform data, loaded by the admin CLI). */
export async function putAsset(environment: Environment, asset: Asset): Promise<void> {
  await putIf(assetEntity, { ...toAsset(asset), environment });
}
