// The floor: the DynamoDB calls each route makes, in the same order, sent straight from the AWS SDK
// to the same DynamoDB Local. What a route costs above this is HTTP, the gateway, Middy, zod and JWTs.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hashCredential } from '../lib/auth/credentials.ts';
import { keys } from '../lib/db/keys.ts';
import type { LocalStack } from '../lib/local/stack.ts';
import type { Op } from './latency.ts';

/** Page size + 1, as lib/db/paginate.ts reads it for the default `limit` of 20. */
const ASSET_QUERY_LIMIT = 21;

export function floorOps(stack: LocalStack, rate: { limit: number; windowSeconds: number }) {
  const { env, seededTenant: tenant } = stack;
  const TableName = env.TABLE_NAME as string;
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: env.AWS_ENDPOINT_URL_DYNAMODB as string,
      region: env.AWS_REGION as string,
      credentials: {
        accessKeyId: env.AWS_ACCESS_KEY_ID as string,
        secretAccessKey: env.AWS_SECRET_ACCESS_KEY as string,
      },
    }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  const apiKeyKey = keys.apiKey(hashCredential(tenant.apiKey));
  // A miss is cheaper than a hit: each read must find what the route finds.
  const getItem = async (Key: { pk: string; sk: string }) => {
    const { Item } = await db.send(new GetCommand({ TableName, Key }));
    if (!Item) throw new Error(`no item ${Key.pk}`);
  };
  const getApiKey = () => getItem(apiKeyKey);
  const getClient = () => getItem(keys.client(tenant.clientId));

  // The same atomic counter the route keeps (lib/auth/rate-limit.ts), on the same client's window item.
  const countRequest = () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const windowStart = nowSeconds - (nowSeconds % rate.windowSeconds);
    return db.send(
      new UpdateCommand({
        TableName,
        Key: keys.tokenRateWindow(tenant.clientId, windowStart),
        UpdateExpression: 'ADD requests :one SET expiresAt = if_not_exists(expiresAt, :expiresAt)',
        ConditionExpression: 'attribute_not_exists(requests) OR requests < :limit',
        ExpressionAttributeValues: {
          ':one': 1,
          ':limit': rate.limit,
          ':expiresAt': windowStart + rate.windowSeconds * 2,
        },
      }),
    );
  };

  const queryAssets = async () => {
    const { Items = [] } = await db.send(
      new QueryCommand({
        TableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.assetRegistry(tenant.environment) },
        Limit: ASSET_QUERY_LIMIT,
      }),
    );
    if (Items.length === 0) throw new Error('empty asset registry');
  };

  /** POST /auth/token: API key (middleware), rate window, client. */
  const token: Op = async () => {
    await getApiKey();
    await countRequest();
    await getClient();
  };
  /** GET /assets: API key (middleware), client (bearer), registry page. */
  const assets: Op = async () => {
    await getApiKey();
    await getClient();
    await queryAssets();
  };
  return { token, assets, close: () => db.destroy() };
}
