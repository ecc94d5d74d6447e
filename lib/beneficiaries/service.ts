// Beneficiaries (saved recipients, individual or business) and their payment destinations (BANK,
// MOBILE_MONEY, CRYPTO). Classification and tier are derived on every write; destination
// verification is a one-way PENDING → APPROVED | REJECTED decision by platform operations.
import { randomUUID } from 'node:crypto';
import { findRegistryAsset, registryNetworkNames } from '../assets/service.ts';
import { findAssociation } from '../auth/associations.ts';
import { badRequest, type FieldError, notFound, Problem, unprocessable } from '../http/problem.ts';
import { parseOrThrow } from '../http/validation.ts';
import { isCurrencyCode } from '../reference/currencies.ts';
import { parsePhoneNumber } from '../reference/phone-numbers.ts';
import type { Tenant } from '../tenant.ts';
import { realAlpha2 } from './countries.ts';
import { toDestinationResource } from './destination-resource.ts';
import {
  type BeneficiaryRecord,
  type Classification,
  type DestinationMethod,
  findBeneficiary,
  findPaymentDestination,
  listAllPaymentDestinations,
  listBeneficiaryPage,
  listPaymentDestinationPage,
  type PaymentDestinationRecord,
  putBeneficiary,
  putPaymentDestination,
  replaceBeneficiary,
  type UnverifiedTier,
} from './repo.ts';
import {
  type BeneficiaryContent,
  type BeneficiaryPatch,
  type Business,
  beneficiaryContent,
  type CreatePaymentDestination,
  type Individual,
} from './schema.ts';

// ── beneficiaries ──────────────────────────────────────────────────────────────────────────────

const normaliseName = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * `Me` when the beneficiary is the caller's own business (a business beneficiary whose registered name
 * is the business association's name) or own person (an individual whose first and last name are the
 * individual association's name), compared trimmed and case-insensitively; otherwise `Unverified`,
 * with `TIER_1` once the identity details are complete.
 */
export function classify(
  content: { individual?: Individual | undefined; business?: Business | undefined },
  association: { name: string; kind: 'business' | 'individual' } | undefined,
): { classification: Classification; unverifiedTier?: UnverifiedTier } {
  const own = association ? normaliseName(association.name) : undefined;
  const { individual, business } = content;
  const isMe =
    own !== undefined &&
    ((business && association?.kind === 'business' && normaliseName(business.registeredName) === own) ||
      (individual &&
        association?.kind === 'individual' &&
        normaliseName(`${individual.firstName} ${individual.lastName}`) === own));
  if (isMe) return { classification: 'Me' };
  const complete = individual
    ? Boolean(
        individual.dateOfBirth && individual.idType && individual.idNumber && individual.idCountryIsoCode2,
      )
    : Boolean(business?.registrationNumber && business.countryIsoCode2);
  return { classification: 'Unverified', unverifiedTier: complete ? 'TIER_1' : 'TIER_0' };
}

/** Countries that are well-formed but name no country: 422 naming each. */
function unknownCountries(content: BeneficiaryContent): FieldError[] {
  const given: [string, string | undefined][] = [
    ['individual.idCountryIsoCode2', content.individual?.idCountryIsoCode2],
    ['business.countryIsoCode2', content.business?.countryIsoCode2],
    ...content.addresses.map((a, i): [string, string] => [
      `addresses.${i}.countryIsoCode2`,
      a.countryIsoCode2,
    ]),
  ];
  return given.flatMap(([field, code]) =>
    code !== undefined && !realAlpha2(code)
      ? [{ field, message: `${code} is not an ISO 3166-1 country` }]
      : [],
  );
}

function assertCountries(content: BeneficiaryContent): void {
  const errors = unknownCountries(content);
  if (errors.length) throw unprocessable('The beneficiary names a country that does not exist.', errors);
}

export function toBeneficiaryResource(record: BeneficiaryRecord) {
  return {
    id: record.beneficiaryId,
    kind: record.kind,
    ...(record.kind === 'individual' ? { individual: record.individual } : { business: record.business }),
    addresses: record.addresses,
    tags: record.tags,
    classification: record.classification,
    ...(record.classification === 'Unverified' ? { unverifiedTier: record.unverifiedTier } : {}),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

function contentRecord(content: BeneficiaryContent) {
  return {
    kind: content.individual ? ('individual' as const) : ('business' as const),
    ...(content.individual ? { individual: content.individual } : { business: content.business }),
    addresses: content.addresses,
    tags: content.tags,
  };
}

export async function createBeneficiary(tenant: Tenant, input: BeneficiaryContent, now: Date) {
  assertCountries(input);
  const record: BeneficiaryRecord = {
    beneficiaryId: randomUUID(),
    environment: tenant.environment,
    associationId: tenant.associationId,
    ...contentRecord(input),
    ...classify(input, await findAssociation(tenant)),
    version: 1,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await putBeneficiary(record);
  return toBeneficiaryResource(record);
}

async function beneficiaryOrNotFound(tenant: Tenant, beneficiaryId: string): Promise<BeneficiaryRecord> {
  const record = await findBeneficiary(tenant, beneficiaryId);
  if (!record) throw notFound(`No beneficiary ${beneficiaryId}.`);
  return record;
}

export async function getBeneficiary(tenant: Tenant, beneficiaryId: string) {
  const record = await beneficiaryOrNotFound(tenant, beneficiaryId);
  const destinations = await listAllPaymentDestinations(tenant, beneficiaryId);
  return { ...toBeneficiaryResource(record), paymentDestinations: destinations.map(toDestinationResource) };
}

export async function listBeneficiaries(
  tenant: Tenant,
  query: { limit: number; cursor?: string | undefined },
) {
  const page = await listBeneficiaryPage(tenant, query);
  return { data: page.data.map(toBeneficiaryResource), pagination: page.pagination };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** RFC 7396: objects merge member by member, `null` removes a member, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const result: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

export async function updateBeneficiary(
  tenant: Tenant,
  beneficiaryId: string,
  patch: BeneficiaryPatch,
  now: Date,
) {
  const current = await beneficiaryOrNotFound(tenant, beneficiaryId);
  const other = current.kind === 'individual' ? 'business' : 'individual';
  if (patch[other] !== undefined && patch[other] !== null) {
    throw badRequest('A beneficiary cannot change between individual and business.', [
      { field: other, message: `is not accepted on an ${current.kind} beneficiary (its kind cannot change)` },
    ]);
  }
  if (patch[current.kind] === null) {
    throw badRequest(`The ${current.kind} details cannot be removed.`, [
      { field: current.kind, message: 'cannot be removed' },
    ]);
  }
  const stored = {
    [current.kind]: current[current.kind],
    addresses: current.addresses,
    tags: current.tags,
  };
  const { [other]: _ignored, ...changes } = patch;
  // The merged beneficiary must be valid as a whole: a removed required member is named like a missing one.
  const merged = parseOrThrow(beneficiaryContent, mergePatch(stored, changes), 'request body');
  assertCountries(merged);
  const record: BeneficiaryRecord = {
    ...current,
    ...contentRecord(merged),
    ...classify(merged, await findAssociation(tenant)),
    version: current.version + 1,
    updatedAt: now.toISOString(),
  };
  if (record.classification === 'Me') delete record.unverifiedTier;
  if ((await replaceBeneficiary(record, current.version)).outcome !== 'written') {
    throw new Problem(
      409,
      'The beneficiary was changed by another request at the same time; read it and retry.',
    );
  }
  return toBeneficiaryResource(record);
}

// ── payment destinations ───────────────────────────────────────────────────────────────────────

/** The method-specific members of a new destination, or the 422s of values that name nothing. */
async function methodFields(
  tenant: Tenant,
  input: CreatePaymentDestination,
  errors: FieldError[],
): Promise<Partial<PaymentDestinationRecord>> {
  switch (input.method) {
    case 'BANK':
      return {
        accountNumber: input.accountNumber,
        bankCode: input.bankCode,
        accountHolderName: input.accountHolderName,
        ...(input.bankName ? { bankName: input.bankName } : {}),
        ...(input.accountType ? { accountType: input.accountType } : {}),
      };
    case 'MOBILE_MONEY': {
      const phone = parsePhoneNumber(input.mobileNumber);
      const countries = phone ? [phone.country, ...phone.getPossibleCountries()] : [];
      if (!countries.includes(input.countryIsoCode2 as never)) {
        errors.push({
          field: 'mobileNumber',
          message: `is not a number of ${input.countryIsoCode2} (countryIsoCode2)`,
        });
      }
      return { mobileNumber: phone?.number ?? input.mobileNumber, provider: input.provider };
    }
    case 'CRYPTO': {
      const [networks, asset] = await Promise.all([
        registryNetworkNames(tenant.environment),
        findRegistryAsset(tenant.environment, input.assetSymbol),
      ]);
      if (!networks.has(input.networkName)) {
        errors.push({
          field: 'networkName',
          message: `${input.networkName} is not a network of this environment (${[...networks].join(', ')})`,
        });
      }
      if (!asset) {
        errors.push({ field: 'assetSymbol', message: `${input.assetSymbol} is not in the asset registry` });
      } else if (networks.has(input.networkName) && asset.networkName !== input.networkName) {
        errors.push({
          field: 'assetSymbol',
          message: `${input.assetSymbol} is not an asset of ${input.networkName}`,
        });
      }
      return {
        networkName: input.networkName,
        assetSymbol: input.assetSymbol,
        assetIssuer: asset?.assetIssuer ?? null,
        walletAddress: input.walletAddress,
      };
    }
  }
}

export async function createPaymentDestination(
  tenant: Tenant,
  beneficiaryId: string,
  input: CreatePaymentDestination,
  now: Date,
) {
  await beneficiaryOrNotFound(tenant, beneficiaryId);
  const errors: FieldError[] = [];
  if (!realAlpha2(input.countryIsoCode2))
    errors.push({
      field: 'countryIsoCode2',
      message: `${input.countryIsoCode2} is not an ISO 3166-1 country`,
    });
  if (!isCurrencyCode(input.currencyIsoCode3))
    errors.push({
      field: 'currencyIsoCode3',
      message: `${input.currencyIsoCode3} is not an ISO 4217 currency`,
    });
  const fields = await methodFields(tenant, input, errors);
  if (errors.length) throw unprocessable('The payment destination cannot be added as requested.', errors);

  const record: PaymentDestinationRecord = {
    destinationId: randomUUID(),
    beneficiaryId,
    environment: tenant.environment,
    associationId: tenant.associationId,
    method: input.method,
    countryIsoCode2: input.countryIsoCode2,
    currencyCode: input.currencyIsoCode3,
    verificationStatus: input.method === 'CRYPTO' ? 'NOT_REQUIRED' : 'PENDING',
    verifyAsMe: input.verifyAsMe,
    ...fields,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await putPaymentDestination(record);
  return toDestinationResource(record);
}

export async function getPaymentDestination(tenant: Tenant, beneficiaryId: string, destinationId: string) {
  const record = await findPaymentDestination(tenant, beneficiaryId, destinationId);
  if (!record) throw notFound(`No payment destination ${destinationId} for beneficiary ${beneficiaryId}.`);
  return toDestinationResource(record);
}

export async function listPaymentDestinations(
  tenant: Tenant,
  beneficiaryId: string,
  query: { limit: number; cursor?: string | undefined; method?: DestinationMethod | undefined },
) {
  await beneficiaryOrNotFound(tenant, beneficiaryId);
  const page = await listPaymentDestinationPage(tenant, beneficiaryId, query.method, {
    limit: query.limit,
    cursor: query.cursor,
  });
  return { data: page.data.map(toDestinationResource), pagination: page.pagination };
}
