// Quotes and business fee rows: tenant-owned items under the tenant scope (lib/db/keys.ts quoteKeys),
// so a quote or fee row of another association is not found by construction.

import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { findAssociation } from '../auth/repo.ts';
import type { TransactionType } from '../connectors/transaction-types.ts';
import { db, tableName } from '../db/client.ts';
import { getRecord, recordOf } from '../db/items.ts';
import { quoteKeys, tenantScope } from '../db/keys.ts';
import type { Environment, Tenant } from '../http/types.ts';

export type QuoteType = 'offramp' | 'onramp';

/** A stored quote. Amounts are decimal strings already rounded to their currency's minor units. */
export interface QuoteRecord {
  quoteId: string;
  environment: Environment;
  associationId: string;
  quoteType: QuoteType;
  connectorId: string;
  transactionType: TransactionType;
  beneficiaryId: string | null;
  paymentDestinationId: string | null;
  sendAmount: string;
  sendCurrency: string;
  receiveAmount: string;
  receiveCurrency: string;
  fee: string;
  feeCurrency: string;
  /** Where the fee came from: the association's fee row or the connector's own fee. */
  feeSource: 'feeRow' | 'connector';
  total: string;
  /** Fiat units per one unit of the ledger asset. */
  rate: string;
  rateSource: string;
  createdAt: string;
  /** ISO 8601: when the quote stops being usable. */
  expiry: string;
  /** The table's TTL attribute (epoch seconds, = expiry): DynamoDB deletes the item some time after. */
  expiresAt: number;
}

export interface FeeRowRecord {
  environment: Environment;
  associationId: string;
  connectorId: string;
  transactionType: TransactionType;
  percentage: string;
  fixed: string;
  /** The connector's acceptedAsset when the row was set: the currency of `fixed`. */
  currency: string;
  updatedAt: string;
}

const tenantOf = (record: { environment: Environment; associationId: string }): Tenant => ({
  environment: record.environment,
  associationId: record.associationId,
});

export const putQuote = (record: QuoteRecord) =>
  db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...quoteKeys.quote(tenantOf(record), record.quoteId), type: 'quote', ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );

/**
 * The caller's quote, or undefined. An expired quote is still returned until DynamoDB's TTL removes it
 * (which can take a while): callers must check `isQuoteExpired`. Payment routes refuse an expired quote
 * with 422 naming `quoteId` (`quote expired`); one already removed reads as unknown (404).
 */
export async function findQuote(tenant: Tenant, quoteId: string): Promise<QuoteRecord | undefined> {
  return getRecord<QuoteRecord>(quoteKeys.quote(tenant, quoteId));
}

export const isQuoteExpired = (quote: Pick<QuoteRecord, 'expiry'>, now: Date): boolean =>
  Date.parse(quote.expiry) <= now.getTime();

export async function findFeeRow(
  tenant: Tenant,
  connectorId: string,
  transactionType: TransactionType,
): Promise<FeeRowRecord | undefined> {
  return getRecord<FeeRowRecord>(quoteKeys.feeRow(tenant, connectorId, transactionType));
}

/** Sets (adds or replaces) an association's fee row. */
export const putFeeRow = (record: FeeRowRecord) =>
  db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...quoteKeys.feeRow(tenantOf(record), record.connectorId, record.transactionType),
        type: 'feeRow',
        ...record,
      },
    }),
  );

/** Removes a fee row; true when there was one. */
export async function deleteFeeRow(
  tenant: Tenant,
  connectorId: string,
  transactionType: TransactionType,
): Promise<boolean> {
  const { Attributes } = await db.send(
    new DeleteCommand({
      TableName: tableName(),
      Key: quoteKeys.feeRow(tenant, connectorId, transactionType),
      ReturnValues: 'ALL_OLD',
    }),
  );
  return Attributes !== undefined;
}

export async function listFeeRows(tenant: Tenant): Promise<FeeRowRecord[]> {
  const rows: FeeRowRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const { Items = [], LastEvaluatedKey } = await db.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': tenantScope(tenant), ':prefix': quoteKeys.feeRowPrefix },
        ExclusiveStartKey: startKey,
      }),
    );
    rows.push(...Items.map((item) => recordOf<FeeRowRecord>(item) as FeeRowRecord));
    startKey = LastEvaluatedKey;
  } while (startKey);
  return rows;
}

/** The kind of the caller's association: the payer (off-ramp) or payee (on-ramp) side of the type. */
export async function findAssociationKind(tenant: Tenant): Promise<'business' | 'individual' | undefined> {
  return (await findAssociation(tenant))?.kind;
}
