// Beneficiaries and their payment destinations: tenant-owned items under the tenant scope
// (lib/db/keys.ts beneficiaryKeys). Destinations are read through their beneficiary, so a destination
// id under another beneficiary (or another tenant) is simply not found.

import { holds } from '../db/conditions.ts';
import { entity, recordOf } from '../db/entity.ts';
import { createIfAbsent, getRecord, putIf, readAllPages, updateIf, type Written } from '../db/items.ts';
import { beneficiaryKeys, tenantOf, tenantScope } from '../db/keys.ts';
import {
  listPartition,
  type PageRequest,
  positionOn,
  queryPage,
  tenantRecordPage,
  underPrefix,
} from '../db/paginate.ts';
import type { Environment, Tenant } from '../tenant.ts';
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

export { tenantOf };

/** A beneficiary: tenant-owned; its `version` guards PATCH (read, merge, write if unchanged). */
export const beneficiaryEntity = entity<BeneficiaryRecord>({
  type: 'beneficiary',
  keyOf: (record) => beneficiaryKeys.beneficiary(tenantOf(record), record.beneficiaryId),
});

/** A payment destination: tenant-owned, under its beneficiary; found by id in the tenant (gsi1). */
export const paymentDestinationEntity = entity<PaymentDestinationRecord>({
  type: 'paymentDestination',
  keyOf: (record) =>
    beneficiaryKeys.destination(tenantOf(record), record.beneficiaryId, record.destinationId),
  indexKeysOf: (record) => ({
    ...beneficiaryKeys.destinationIndexKeys(tenantOf(record), record.destinationId),
    ...beneficiaryKeys.listKeys(tenantOf(record), record),
  }),
});

/** Named conditions of the beneficiary items. */
const unchangedSince = (version: number) => holds({ version });
const pendingVerification = holds({ verificationStatus: 'PENDING' });

async function created<R>(written: Promise<Written<R>>): Promise<void> {
  if ((await written).outcome !== 'written') throw new Error('An item with this new id already exists');
}

// ── beneficiaries ──────────────────────────────────────────────────────────────────────────────

export async function findBeneficiary(
  tenant: Tenant,
  beneficiaryId: string,
): Promise<BeneficiaryRecord | undefined> {
  return getRecord<BeneficiaryRecord>(beneficiaryKeys.beneficiary(tenant, beneficiaryId));
}

export const putBeneficiary = (record: BeneficiaryRecord) =>
  created(createIfAbsent(beneficiaryEntity, record));

/** Replaces a beneficiary if nobody changed it since `expectedVersion`. */
export const replaceBeneficiary = (record: BeneficiaryRecord, expectedVersion: number) =>
  putIf(beneficiaryEntity, record, unchangedSince(expectedVersion));

export const listBeneficiaryPage = (tenant: Tenant, page: Omit<PageRequest, 'binding'>) =>
  tenantRecordPage<BeneficiaryRecord>(
    tenant,
    underPrefix(tenantScope(tenant), beneficiaryKeys.beneficiaryPrefix),
    'beneficiaries',
    page,
  );

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

/** The caller's destination with this id, whichever of its beneficiaries holds it (gsi1, tenant-scoped). */
export async function findTenantPaymentDestination(
  tenant: Tenant,
  destinationId: string,
): Promise<PaymentDestinationRecord | undefined> {
  const { gsi1pk, gsi1sk } = beneficiaryKeys.destinationIndexKeys(tenant, destinationId);
  const [found] = await readAllPages<PaymentDestinationRecord>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
    ExpressionAttributeValues: { ':pk': gsi1pk, ':sk': gsi1sk },
  });
  return found;
}

export const putPaymentDestination = (record: PaymentDestinationRecord) =>
  created(createIfAbsent(paymentDestinationEntity, record));

export function listPaymentDestinationPage(
  tenant: Tenant,
  beneficiaryId: string,
  method: DestinationMethod | undefined,
  page: Omit<PageRequest, 'binding'>,
) {
  // By id, as the beneficiary's own prefix sorts them; a method reads its list index.
  return queryPage(
    method
      ? {
          ...listPartition('list1', beneficiaryKeys.byMethod(tenant, beneficiaryId, method)),
          recordKeyOf: (entry) => ({ pk: tenantScope(tenant), sk: String(entry.sk) }),
        }
      : underPrefix(tenantScope(tenant), beneficiaryKeys.destinationPrefix(beneficiaryId)),
    {
      ...page,
      binding: {
        scope: tenantScope(tenant),
        query: `beneficiaries/${beneficiaryId}/payment-destinations?method=${method ?? ''}`,
      },
    },
    positionOn(method && 'list1'),
    (item) => recordOf<PaymentDestinationRecord>(item),
  );
}

/** Every destination of a beneficiary (the single-beneficiary read nests them). */
export const listAllPaymentDestinations = (tenant: Tenant, beneficiaryId: string) =>
  readAllPages<PaymentDestinationRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': tenantScope(tenant),
      ':prefix': beneficiaryKeys.destinationPrefix(beneficiaryId),
    },
  });

/** Moves a destination out of PENDING, once: the destination now, or as it is when it was not PENDING. */
export const decideVerification = (
  record: Pick<PaymentDestinationRecord, 'environment' | 'associationId' | 'beneficiaryId' | 'destinationId'>,
  decision: 'APPROVED' | 'REJECTED',
  now: Date,
) =>
  updateIf<PaymentDestinationRecord>(
    beneficiaryKeys.destination(tenantOf(record), record.beneficiaryId, record.destinationId),
    {
      set: {
        verificationStatus: decision,
        verificationDecidedAt: now.toISOString(),
        updatedAt: now.toISOString(),
      },
    },
    pendingVerification,
  );
