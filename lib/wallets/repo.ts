import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.ts';
import { getRecord } from '../db/items.ts';
import { tenantScope, walletKeys } from '../db/keys.ts';
import { type PageRequest, queryPage } from '../db/paginate.ts';
import type { Tenant } from '../http/types.ts';
import type { SealedSecret } from '../ledger/custody.ts';
import type { WalletMetadata } from './schema.ts';

export type WalletStatus = 'Pending' | 'Verified' | 'Rejected';
/** Where the wallet's ledger account is: being created, open, or refused by the ledger. */
export type ActivationStatus = 'pending' | 'active' | 'failed';

export interface WalletRecord {
  walletId: string;
  environment: Tenant['environment'];
  associationId: string;
  walletName: string;
  assetCode: string;
  assetIssuer: string | null;
  ownAccount: boolean;
  status: WalletStatus;
  networkName: string;
  publicKey: string;
  /** The ledger secret, sealed under the key-encryption key; never leaves the service. */
  sealedSecret: SealedSecret;
  metadata: WalletMetadata | null;
  activationStatus: ActivationStatus;
  activationErrorCode?: string;
  activationFailureReason?: string;
  createdAt: string;
  updatedAt: string;
}

const tenantOf = (record: Pick<WalletRecord, 'environment' | 'associationId'>): Tenant => ({
  environment: record.environment,
  associationId: record.associationId,
});

export const putWallet = (record: WalletRecord) =>
  db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...walletKeys.wallet(tenantOf(record), record.walletId),
        ...walletKeys.byWalletId(record.walletId),
        type: 'wallet',
        ...record,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );

export async function findWallet(
  tenant: Tenant,
  walletId: string,
  options: { consistent?: boolean } = {},
): Promise<WalletRecord | undefined> {
  return getRecord<WalletRecord>(walletKeys.wallet(tenant, walletId), options);
}

export function listWalletPage(
  tenant: Tenant,
  filters: { assetCode?: string | undefined; networkName?: string | undefined },
  page: Omit<PageRequest, 'binding'>,
) {
  const conditions: string[] = [];
  const values: Record<string, unknown> = { ':pk': tenantScope(tenant), ':prefix': walletKeys.walletPrefix };
  if (filters.assetCode) {
    conditions.push('assetCode = :assetCode');
    values[':assetCode'] = filters.assetCode;
  }
  if (filters.networkName) {
    conditions.push('networkName = :networkName');
    values[':networkName'] = filters.networkName;
  }
  return queryPage(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ...(conditions.length ? { FilterExpression: conditions.join(' AND ') } : {}),
      ExpressionAttributeValues: values,
    },
    { ...page, binding: { scope: tenantScope(tenant), query: `wallets?${JSON.stringify(filters)}` } },
    (item) => ({ pk: item.pk, sk: item.sk }),
    (item) => item as unknown as WalletRecord,
  );
}

/** Moves a wallet out of `from`; false when it was not in that state (a concurrent or repeated decision). */
export async function transitionStatus(
  tenant: Tenant,
  walletId: string,
  from: WalletStatus,
  to: WalletStatus,
  now: Date,
): Promise<WalletRecord | false> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: walletKeys.wallet(tenant, walletId),
        UpdateExpression: 'SET #status = :to, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND #status = :from',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':from': from, ':to': to, ':now': now.toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as WalletRecord;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Records where activation ended; only a pending activation moves (a replayed message changes nothing). */
export async function recordActivation(
  tenant: Tenant,
  walletId: string,
  outcome: { status: 'active' } | { status: 'failed'; errorCode: string; failureReason: string },
  now: Date,
): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: walletKeys.wallet(tenant, walletId),
        UpdateExpression:
          outcome.status === 'active'
            ? 'SET activationStatus = :to, updatedAt = :now'
            : 'SET activationStatus = :to, activationErrorCode = :code, activationFailureReason = :reason, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND activationStatus = :pending',
        ExpressionAttributeValues: {
          ':to': outcome.status,
          ':pending': 'pending',
          ':now': now.toISOString(),
          ...(outcome.status === 'failed'
            ? { ':code': outcome.errorCode, ':reason': outcome.failureReason }
            : {}),
        },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** For platform operations only: the wallet with this id in whichever tenant holds it. */
export async function findWalletAnyTenant(walletId: string): Promise<WalletRecord | undefined> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
      ExpressionAttributeValues: { ':pk': walletKeys.byWalletId(walletId).gsi1pk, ':sk': 'WALLET' },
    }),
  );
  return Items[0] as WalletRecord | undefined;
}

export { tenantOf };
