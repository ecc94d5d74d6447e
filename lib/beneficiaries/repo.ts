// Beneficiaries and their payment destinations: tenant-owned items under the tenant scope
// (lib/db/keys.ts beneficiaryKeys). Destinations are read through their beneficiary, so a destination
// id under another beneficiary (or another tenant) is simply not found.

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.ts';
import { getRecord, putNewItem, recordOf } from '../db/items.ts';
import { beneficiaryKeys, keys, tenantScope } from '../db/keys.ts';
import { type PageRequest, queryPage } from '../db/paginate.ts';
import type { Environment, Tenant } from '../http/types.ts';
import type { Address, Business, Individual, Tag } from './schema.ts';

export type BeneficiaryKind = 'individual' | 'business';
export type Classification = 'Me' | 'Unverified';
export type UnverifiedTier = 'TIER_0' | 'TIER_1';

export interface BeneficiaryRecord {
  beneficiaryId: string;
  environment: Environment;
  associationId: string;
  kind: BeneficiaryKind;
  /** Exactly one of individual / business is set, matching `kind`. */
  individual?: Individual;
  business?: Business;
  addresses: Address[];
  tags: Tag[];
  classification: Classification;
  /** Only while classification is Unverified. */
  unverifiedTier?: UnverifiedTier;
  /** Optimistic concurrency for PATCH (read, merge, write if unchanged). */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export type DestinationMethod = 'BANK' | 'MOBILE_MONEY' | 'CRYPTO';
export type VerificationStatus = 'NOT_REQUIRED' | 'PENDING' | 'APPROVED' | 'REJECTED';

export interface PaymentDestinationRecord {
  destinationId: string;
  beneficiaryId: string;
  environment: Environment;
  associationId: string;
  method: DestinationMethod;
  /** ISO 3166-1 alpha-2, upper case. */
  countryIsoCode2: string;
  /** ISO 4217, upper case. */
  currencyCode: string;
  verificationStatus: VerificationStatus;
  verifyAsMe: boolean;
  /** BANK: digits/letters only (spaces and hyphens removed); stored in full, masked in responses. */
  accountNumber?: string;
  /** BANK: the bank or branch code (sort code, NUBAN bank code, …). */
  bankCode?: string;
  accountHolderName?: string;
  bankName?: string;
  accountType?: string;
  /** MOBILE_MONEY: E.164; stored in full, masked in responses. */
  mobileNumber?: string;
  /** MOBILE_MONEY: upper case, e.g. MPESA. */
  provider?: string;
  /** CRYPTO: the registry's network name of the caller's environment, e.g. stellar-testnet. */
  networkName?: string;
  /** CRYPTO: registry asset code. */
  assetSymbol?: string;
  /** CRYPTO: the asset's issuer as the registry had it when the destination was added (null for XLM). */
  assetIssuer?: string | null;
  /** CRYPTO: ledger account (G…) or muxed account (M…). */
  walletAddress?: string;
  verificationDecidedAt?: string;
  createdAt: string;
  updatedAt: string;
}

export const tenantOf = (record: { environment: Environment; associationId: string }): Tenant => ({
  environment: record.environment,
  associationId: record.associationId,
});

// ── beneficiaries ──────────────────────────────────────────────────────────────────────────────

export async function findBeneficiary(
  tenant: Tenant,
  beneficiaryId: string,
): Promise<BeneficiaryRecord | undefined> {
  return getRecord<BeneficiaryRecord>(beneficiaryKeys.beneficiary(tenant, beneficiaryId));
}

/** The table item of a beneficiary record. */
const beneficiaryItem = (record: BeneficiaryRecord) => ({
  ...beneficiaryKeys.beneficiary(tenantOf(record), record.beneficiaryId),
  type: 'beneficiary',
  ...record,
});

export const putBeneficiary = (record: BeneficiaryRecord) => putNewItem(beneficiaryItem(record));

/** Replaces a beneficiary if nobody changed it since `expectedVersion`; false when someone did. */
export async function replaceBeneficiary(
  record: BeneficiaryRecord,
  expectedVersion: number,
): Promise<boolean> {
  try {
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: beneficiaryItem(record),
        ConditionExpression: 'attribute_exists(pk) AND version = :expected',
        ExpressionAttributeValues: { ':expected': expectedVersion },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

export const listBeneficiaryPage = (tenant: Tenant, page: Omit<PageRequest, 'binding'>) =>
  queryPage(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': tenantScope(tenant), ':prefix': beneficiaryKeys.beneficiaryPrefix },
    },
    { ...page, binding: { scope: tenantScope(tenant), query: 'beneficiaries' } },
    (item) => ({ pk: item.pk, sk: item.sk }),
    (item) => recordOf<BeneficiaryRecord>(item) as BeneficiaryRecord,
  );

/** The caller's association (its name and kind decide which beneficiaries are `Me`). */
export { findAssociation } from '../auth/repo.ts';

// ── payment destinations ───────────────────────────────────────────────────────────────────────

export async function findPaymentDestination(
  tenant: Tenant,
  beneficiaryId: string,
  destinationId: string,
): Promise<PaymentDestinationRecord | undefined> {
  return getRecord<PaymentDestinationRecord>(
    beneficiaryKeys.destination(tenant, beneficiaryId, destinationId),
  );
}

export const putPaymentDestination = (record: PaymentDestinationRecord) =>
  db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...beneficiaryKeys.destination(tenantOf(record), record.beneficiaryId, record.destinationId),
        ...beneficiaryKeys.byDestinationId(record.destinationId),
        type: 'paymentDestination',
        ...record,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );

export function listPaymentDestinationPage(
  tenant: Tenant,
  beneficiaryId: string,
  method: DestinationMethod | undefined,
  page: Omit<PageRequest, 'binding'>,
) {
  return queryPage(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ...(method
        ? { FilterExpression: '#method = :method', ExpressionAttributeNames: { '#method': 'method' } }
        : {}),
      ExpressionAttributeValues: {
        ':pk': tenantScope(tenant),
        ':prefix': beneficiaryKeys.destinationPrefix(beneficiaryId),
        ...(method ? { ':method': method } : {}),
      },
    },
    {
      ...page,
      binding: {
        scope: tenantScope(tenant),
        query: `beneficiaries/${beneficiaryId}/payment-destinations?method=${method ?? ''}`,
      },
    },
    (item) => ({ pk: item.pk, sk: item.sk }),
    (item) => recordOf<PaymentDestinationRecord>(item) as PaymentDestinationRecord,
  );
}

/** Every destination of a beneficiary (the single-beneficiary read nests them). */
export async function listAllPaymentDestinations(
  tenant: Tenant,
  beneficiaryId: string,
): Promise<PaymentDestinationRecord[]> {
  const records: PaymentDestinationRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: {
          ':pk': tenantScope(tenant),
          ':prefix': beneficiaryKeys.destinationPrefix(beneficiaryId),
        },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of result.Items ?? [])
      records.push(recordOf<PaymentDestinationRecord>(item) as PaymentDestinationRecord);
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return records;
}

/** Moves a destination out of PENDING, once; false when it was not PENDING (decided, or needs no verification). */
export async function decideVerification(
  record: Pick<PaymentDestinationRecord, 'environment' | 'associationId' | 'beneficiaryId' | 'destinationId'>,
  decision: 'APPROVED' | 'REJECTED',
  now: Date,
): Promise<PaymentDestinationRecord | false> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: beneficiaryKeys.destination(tenantOf(record), record.beneficiaryId, record.destinationId),
        UpdateExpression: 'SET verificationStatus = :to, verificationDecidedAt = :now, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND verificationStatus = :pending',
        ExpressionAttributeValues: { ':to': decision, ':pending': 'PENDING', ':now': now.toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return recordOf<PaymentDestinationRecord>(Attributes) as PaymentDestinationRecord;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** For platform operations and the sandbox helper: the destination with this id in whichever tenant holds it. */
export async function findPaymentDestinationAnyTenant(
  destinationId: string,
): Promise<PaymentDestinationRecord | undefined> {
  const { gsi1pk, gsi1sk } = beneficiaryKeys.byDestinationId(destinationId);
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
      ExpressionAttributeValues: { ':pk': gsi1pk, ':sk': gsi1sk },
    }),
  );
  return recordOf<PaymentDestinationRecord>(Items[0]);
}

/** The network names of an environment's asset registry (a CRYPTO destination must name one of them). */
export async function registryNetworkNames(environment: Environment): Promise<Set<string>> {
  const names = new Set<string>();
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ProjectionExpression: 'networkName',
        ExpressionAttributeValues: { ':pk': keys.assetRegistry(environment) },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of result.Items ?? [])
      if (typeof item.networkName === 'string') names.add(item.networkName);
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return names;
}
