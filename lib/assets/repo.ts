import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.ts';
import { keys } from '../db/keys.ts';
import { type PageRequest, queryPage } from '../db/paginate.ts';
import type { Environment } from '../http/types.ts';
import type { Asset } from './schema.ts';

const toAsset = ({
  assetCode,
  assetIssuer,
  assetType,
  name,
  decimals,
  networkName,
}: Record<string, unknown>) => ({ assetCode, assetIssuer, assetType, name, decimals, networkName }) as Asset;

export async function findAsset(environment: Environment, assetCode: string): Promise<Asset | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.asset(environment, assetCode) }),
  );
  return Item ? toAsset(Item) : undefined;
}

export const listAssetPage = (environment: Environment, page: PageRequest) =>
  queryPage(
    {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.assetRegistry(environment) },
    },
    page,
    (item) => ({ pk: item.pk, sk: item.sk }),
    toAsset,
  );

/** Adds or replaces a registry entry (the registry is platform data, loaded by the admin CLI). */
export const putAsset = (environment: Environment, asset: Asset) =>
  db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.asset(environment, asset.assetCode), type: 'asset', ...asset },
    }),
  );
