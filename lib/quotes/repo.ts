// Quotes and business fee rows: tenant-owned items under the tenant scope (lib/db/keys.ts quoteKeys),
// so a quote or fee row of another association is not found by construction.

import type { TransactionType } from '../connectors/transaction-types.ts';
import { unclaimedOr } from '../db/conditions.ts';
import { entity } from '../db/entity.ts';
import { createIfAbsent, deleteItem, getRecord, putIf, readAllPages, updateIf } from '../db/items.ts';
import { quoteKeys, tenantOf, tenantScope } from '../db/keys.ts';
import type { Environment, Tenant } from '../tenant.ts';

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
  /** The transaction record that executes it: a quote executes at most once. */
  usedBy?: string;
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

/** A quote: tenant-owned, removed by TTL (`expiresAt`). */
const quoteEntity = entity<QuoteRecord>({
  type: 'quote',
  keyOf: (record) => quoteKeys.quote(tenantOf(record), record.quoteId),
});

/** A business fee row: tenant-owned, one per connector and transaction type. */
const feeRowEntity = entity<FeeRowRecord>({
  type: 'feeRow',
  keyOf: (record) => quoteKeys.feeRow(tenantOf(record), record.connectorId, record.transactionType),
});

export async function putQuote(record: QuoteRecord): Promise<void> {
  if ((await createIfAbsent(quoteEntity, record)).outcome !== 'written')
    throw new Error(`Quote ${record.quoteId} already exists`);
}

/**
 * The caller's quote, or undefined. An expired quote is still returned until DynamoDB's TTL removes it
 * (which can take a while): callers must check `isQuoteExpired`. Payment routes refuse an expired quote
 * with 422 naming `quoteId` (`quote expired`); one already removed reads as unknown (404).
 */
export async function findQuote(tenant: Tenant, quoteId: string): Promise<QuoteRecord | undefined> {
  return getRecord<QuoteRecord>(quoteKeys.quote(tenant, quoteId));
}

/**
 * Marks the quote as executed by `transactionRecordId`: true if it is now (or was already) that
 * record's, false if another record holds it. Repeatable by its holder, so a replay or a retry after a
 * crash between this and the record's insert finds its own claim.
 */
export async function claimQuote(tenant: Tenant, quoteId: string, transactionRecordId: string) {
  const written = await updateIf<QuoteRecord>(
    quoteKeys.quote(tenant, quoteId),
    { set: { usedBy: transactionRecordId } },
    unclaimedOr('usedBy', transactionRecordId),
  );
  return written.outcome === 'written';
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
export async function putFeeRow(record: FeeRowRecord): Promise<void> {
  await putIf(feeRowEntity, record);
}

/** Removes a fee row; true when there was one. */
export async function deleteFeeRow(
  tenant: Tenant,
  connectorId: string,
  transactionType: TransactionType,
): Promise<boolean> {
  return (await deleteItem(quoteKeys.feeRow(tenant, connectorId, transactionType))) !== undefined;
}

export const listFeeRows = (tenant: Tenant) =>
  readAllPages<FeeRowRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantScope(tenant), ':prefix': quoteKeys.feeRowPrefix },
  });
