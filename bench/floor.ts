// The floor: the backend calls each route makes, in the same order, sent straight from the AWS SDK
// (and, for the ledger, plain HTTP) to the same DynamoDB Local, fauxqs and local ledger. What a route
// costs above this is HTTP, the gateway, Middy, zod, JWTs and the route's own work (e.g. key sealing).
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { hashCredential } from '../lib/auth/credentials.ts';
import type { TransactionType } from '../lib/connectors/transaction-types.ts';
import { connectorKeys, type ItemKey, keys, quoteKeys, walletKeys } from '../lib/db/keys.ts';
import type { Tenant } from '../lib/tenant.ts';
import type { LocalStack } from '../local/stack.ts';
import { httpClient, type Op } from './latency.ts';

/** Page size + 1, as lib/db/paginate.ts reads it for the default `limit` of 20. */
const FIRST_PAGE_LIMIT = 21;

/** Region and credentials of the stack, for SDK clients of its local services. */
export const awsSettings = (env: Record<string, string>) => ({
  region: env.AWS_REGION as string,
  credentials: {
    accessKeyId: env.AWS_ACCESS_KEY_ID as string,
    secretAccessKey: env.AWS_SECRET_ACCESS_KEY as string,
  },
});

/** The reads every token-authenticated route starts with, on a document client of its own. */
export function tableAccess(stack: LocalStack) {
  const { env, seededTenant: tenant } = stack;
  const TableName = env.TABLE_NAME as string;
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: env.AWS_ENDPOINT_URL_DYNAMODB as string, ...awsSettings(env) }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  const apiKeyKey = keys.apiKey(hashCredential(tenant.apiKey));
  // A miss is cheaper than a hit: each read must find what the route finds.
  const getItem = async (Key: ItemKey) => {
    const { Item } = await db.send(new GetCommand({ TableName, Key }));
    if (!Item) throw new Error(`no item ${Key.pk}`);
    return Item;
  };
  const getApiKey = () => getItem(apiKeyKey);
  const getClient = () => getItem(keys.client(tenant.clientId));
  // The Query(ies) lib/db/paginate.ts queryPage makes for a first page without a filter: read on until the
  // page plus one is full or the partition is exhausted (one Query unless DynamoDB cuts a read short).
  const queryFirstPage = async (pk: string) => {
    const Items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const result = await db.send(
        new QueryCommand({
          TableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          Limit: FIRST_PAGE_LIMIT - Items.length,
          ExclusiveStartKey: startKey,
        }),
      );
      Items.push(...(result.Items ?? []));
      startKey = result.LastEvaluatedKey;
    } while (startKey && Items.length < FIRST_PAGE_LIMIT);
    if (Items.length === 0) throw new Error(`empty partition ${pk}`);
  };
  return { db, TableName, getItem, getApiKey, getClient, queryFirstPage };
}

export function floorOps(stack: LocalStack, rate: { limit: number; windowSeconds: number }) {
  const { seededTenant: tenant } = stack;
  const { db, TableName, getApiKey, getClient, queryFirstPage } = tableAccess(stack);

  const windowStart = () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    return nowSeconds - (nowSeconds % rate.windowSeconds);
  };
  // The route's reads of the application's failure windows (all sources, this one) before the check.
  const readFailureWindows = () =>
    Promise.all(
      [`failures#app#${tenant.applicationId}`, `failures#app#${tenant.applicationId}#ip#127.0.0.1`].map(
        (subject) =>
          db.send(
            new GetCommand({
              TableName,
              Key: keys.tokenRateWindow(subject, windowStart()),
              ConsistentRead: true,
            }),
          ),
      ),
    );
  // The same atomic counter the route keeps (lib/auth/rate-limit.ts), on the same client's window item.
  const countRequest = () =>
    db.send(
      new UpdateCommand({
        TableName,
        Key: keys.tokenRateWindow(`client#${tenant.clientId}`, windowStart()),
        UpdateExpression: 'ADD requests :one SET expiresAt = if_not_exists(expiresAt, :expiresAt)',
        ConditionExpression: 'attribute_not_exists(requests) OR requests < :limit',
        ExpressionAttributeValues: {
          ':one': 1,
          ':limit': rate.limit,
          ':expiresAt': windowStart() + rate.windowSeconds * 2,
        },
      }),
    );

  /** POST /auth/token: API key (middleware), failure windows, client, the client's rate window. */
  const token: Op = async () => {
    await getApiKey();
    await readFailureWindows();
    await getClient();
    await countRequest();
  };
  /** GET /assets: API key (middleware), client (bearer), registry page. */
  const assets: Op = async () => {
    await getApiKey();
    await getClient();
    await queryFirstPage(keys.assetRegistry(tenant.environment));
  };
  /** GET /connectors: API key (middleware), client (bearer), catalogue page (no filter). */
  const connectors: Op = async () => {
    await getApiKey();
    await getClient();
    await queryFirstPage(connectorKeys.catalogue(tenant.environment));
  };
  return { token, assets, connectors, close: () => db.destroy() };
}

/**
 * The wallet routes' backend calls, for `wallet` (an active wallet of the seeded tenant). The create floor
 * writes records under a tenant scope no caller has (a random association), so they cannot collide with the
 * route's, and writes them 'active': a 'pending' insert would ask the outbox for an activation (the route's
 * own asks for one after its answer, outside its latency, as the floor's does not).
 */
export async function walletFloorOps(stack: LocalStack, wallet: { walletId: string; publicKey: string }) {
  const { seededTenant: tenant } = stack;
  const { db, TableName, getItem, getApiKey, getClient } = tableAccess(stack);
  const ledger = httpClient(16);

  // The record the route wrote for `wallet`: same attributes, same sizes ('active' for 'pending', see above).
  const template = {
    ...(await getItem(walletKeys.wallet(tenant, wallet.walletId))),
    activationStatus: 'active',
  };
  const benchTenant: Tenant = { environment: tenant.environment, associationId: randomUUID() };

  /** Horizon's GET /accounts/{id}, as the route's balance lookup makes it. */
  const loadAccount = async () => {
    const { status, body } = await ledger.send(`${stack.horizonUrl}/accounts/${wallet.publicKey}`, {
      method: 'GET',
      headers: { accept: 'application/json' },
    });
    if (status !== 200) throw new Error(`ledger HTTP ${status} ${body.slice(0, 200)}`);
  };

  /** GET /wallets/{walletId}: API key (middleware), client (bearer), wallet record, ledger account. */
  const getWallet: Op = async () => {
    await getApiKey();
    await getClient();
    await getItem(walletKeys.wallet(tenant, wallet.walletId));
    await loadAccount();
  };
  /** POST /wallets: API key, client, asset, conditional put (the record is the activation's outbox). */
  const createWallet: Op = async () => {
    await getApiKey();
    await getClient();
    await getItem(keys.asset(tenant.environment, 'USDC'));
    const walletId = randomUUID();
    const now = new Date().toISOString();
    await db.send(
      new PutCommand({
        TableName,
        Item: {
          ...template,
          ...walletKeys.wallet(benchTenant, walletId),
          ...walletKeys.byWalletId(walletId),
          walletId,
          associationId: benchTenant.associationId,
          createdAt: now,
          updatedAt: now,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  };
  return {
    getWallet,
    createWallet,
    close: () => {
      ledger.close();
      db.destroy();
    },
  };
}

/**
 * POST /quotes (off-ramp, exploratory: a transaction type, no beneficiary), for `quote` (one the route
 * made for the seeded tenant): API key, client, connector, the asset it accepts (its quoting decimals),
 * the association's fee row for the connector and type, and the conditional put of the quote. The
 * quote is a copy of the route's record, written under a tenant scope no caller has (a random
 * association), so it cannot collide with the route's. The route's zod, pricing (bignumber.js) and rate
 * lookup (a configured table, no backend call) are not in the floor.
 */
export async function quoteFloorOps(stack: LocalStack, quote: { quoteId: string }) {
  const { seededTenant: tenant } = stack;
  const { db, TableName, getItem, getApiKey, getClient } = tableAccess(stack);

  // The record the route wrote, as it was written: same attributes, same sizes.
  const template = await getItem(quoteKeys.quote(tenant, quote.quoteId));
  const connectorId = template.connectorId as string;
  const transactionType = template.transactionType as TransactionType;
  const connectorKey = connectorKeys.connector(tenant.environment, connectorId);
  const assetKey = keys.asset(tenant.environment, (await getItem(connectorKey)).acceptedAsset as string);
  const feeRowKey = quoteKeys.feeRow(tenant, connectorId, transactionType);
  // The route found a fee row (or not): the floor's read must find the same.
  const hasFeeRow = template.feeSource === 'feeRow';
  const ttlMs = Date.parse(template.expiry as string) - Date.parse(template.createdAt as string);
  const benchTenant: Tenant = { environment: tenant.environment, associationId: randomUUID() };

  const getFeeRow = async () => {
    const { Item } = await db.send(new GetCommand({ TableName, Key: feeRowKey }));
    if (Boolean(Item) !== hasFeeRow) throw new Error(`fee row ${feeRowKey.sk} ${Item ? 'found' : 'missing'}`);
  };

  const createQuote: Op = async () => {
    await getApiKey();
    await getClient();
    await getItem(connectorKey);
    await getItem(assetKey);
    await getFeeRow();
    const quoteId = randomUUID();
    const now = new Date();
    const expiry = new Date(now.getTime() + ttlMs);
    await db.send(
      new PutCommand({
        TableName,
        Item: {
          ...template,
          ...quoteKeys.quote(benchTenant, quoteId),
          quoteId,
          associationId: benchTenant.associationId,
          createdAt: now.toISOString(),
          expiry: expiry.toISOString(),
          expiresAt: Math.ceil(expiry.getTime() / 1000),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  };
  return { createQuote, close: () => db.destroy() };
}
