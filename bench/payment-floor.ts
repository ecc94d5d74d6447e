// The floor of POST /v1/payments/p2p/own: the backend calls the route makes (lib/payments/service.ts), in
// the same order, straight from the AWS SDK to the same DynamoDB Local. What the route costs above this is
// HTTP, the gateway, Middy, zod, the JWT, the request's fingerprint and record id (sha256, sha1) and
// building the record.
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type ItemKey, keys, transactionKeys, walletKeys } from '../lib/db/keys.ts';
import type { Tenant } from '../lib/tenant.ts';
import type { LocalStack } from '../local/stack.ts';
import { tableAccess } from './floor.ts';
import type { Op } from './latency.ts';
import { PAYMENT_ASSET } from './payment-api.ts';

/**
 * For a payment the route accepted (its record is the template) between two of the seeded tenant's
 * wallets: API key and client (the token middleware), a consistent GetItem of the new record's key (a
 * miss: each request is a new transactionId), the two wallets read at once and consistently (as
 * ownDraft does), the registry asset, and the conditional put (attribute_not_exists, ALL_OLD on a
 * failed condition) of a copy of the template under a tenant scope no caller has (a random association),
 * so it cannot collide with the route's records. The copy is written as the route writes it but with
 * status 'completed' instead of 'initiated': an 'initiated' insert would ask the outbox for a ledger
 * payment (the route's own asks for one after its answer, outside its latency, as the floor's does not).
 */
export async function paymentFloorOps(
  stack: LocalStack,
  payment: { transactionRecordId: string },
  wallets: { walletId: string; destinationWalletId: string },
) {
  const { seededTenant: tenant } = stack;
  const { db, TableName, getItem, getApiKey, getClient } = tableAccess(stack);
  const settled = await getItem(transactionKeys.record(tenant, payment.transactionRecordId));
  // As the route wrote it, before the worker settled it (same attributes, same sizes).
  const template = {
    ...settled,
    status: 'completed',
    stellarTxHash: null,
    errorCode: null,
    failureReason: null,
    completedAt: null,
    updatedAt: settled.createdAt,
  };
  const benchTenant: Tenant = { environment: tenant.environment, associationId: randomUUID() };
  const consistentGet = (Key: ItemKey) => db.send(new GetCommand({ TableName, Key, ConsistentRead: true }));
  const mustFind = async (Key: ItemKey) => {
    const { Item } = await consistentGet(Key);
    if (!Item) throw new Error(`no item ${Key.pk} ${Key.sk}`);
  };

  const createPayment: Op = async () => {
    await getApiKey();
    await getClient();
    const transactionRecordId = randomUUID();
    const recordKey = transactionKeys.record(benchTenant, transactionRecordId);
    const { Item } = await consistentGet(recordKey);
    if (Item) throw new Error(`record ${transactionRecordId} already there`);
    await Promise.all([
      mustFind(walletKeys.wallet(tenant, wallets.walletId)),
      mustFind(walletKeys.wallet(tenant, wallets.destinationWalletId)),
    ]);
    await getItem(keys.asset(tenant.environment, PAYMENT_ASSET));
    const now = new Date().toISOString();
    await db.send(
      new PutCommand({
        TableName,
        Item: {
          ...template,
          ...recordKey,
          ...transactionKeys.byCreation(benchTenant, now, transactionRecordId),
          transactionRecordId,
          associationId: benchTenant.associationId,
          idempotencyKey: randomUUID(),
          createdAt: now,
          updatedAt: now,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  };
  return { createPayment, close: () => db.destroy() };
}
