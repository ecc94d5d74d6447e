// What the beneficiary and payment destination routes answer (service.ts toBeneficiaryResource,
// toDestinationResource). Members are as stored after normalisation: countries upper case, account
// and mobile numbers masked.
import { pageOf } from '../http/responses.ts';
import * as z from '../zod.ts';
import { ACCOUNT_TYPES, ID_TYPES } from './schema.ts';

const timestamp = z.iso.datetime();
const alpha2 = z.string().check(z.regex(/^[A-Z]{2}$/, 'must be an upper-case ISO 3166-1 alpha-2 code'));
const masked = z
  .string()
  .check(
    z.regex(/^\*{6}.{0,4}$/, 'must be masked'),
    z.describe('Masked: `******` and the last 4 characters.'),
  );

export const individualResource = z.strictObject({
  firstName: z.string(),
  lastName: z.string(),
  dateOfBirth: z.optional(z.iso.date()),
  idType: z.optional(z.enum(ID_TYPES)),
  idNumber: z.optional(z.string()),
  idCountryIsoCode2: z.optional(alpha2),
  email: z.optional(z.email()),
  mobile: z.optional(z.string()),
});

export const businessResource = z.strictObject({
  registeredName: z.string(),
  registrationNumber: z.optional(z.string()),
  countryIsoCode2: z.optional(alpha2),
  email: z.optional(z.email()),
  mobile: z.optional(z.string()),
});

const common = {
  id: z.uuid(),
  addresses: z.array(
    z.strictObject({
      line1: z.string(),
      line2: z.optional(z.string()),
      city: z.string(),
      region: z.optional(z.string()),
      postalCode: z.optional(z.string()),
      countryIsoCode2: alpha2,
    }),
  ),
  tags: z.array(z.strictObject({ key: z.string(), value: z.string() })),
  classification: z
    .enum(['Me', 'Unverified'])
    .check(z.describe('Me when the beneficiary is the caller itself; recomputed on every change.')),
  unverifiedTier: z
    .optional(z.enum(['TIER_0', 'TIER_1']))
    .check(z.describe('Only while Unverified: TIER_1 once the identity details are complete.')),
  createdAt: timestamp,
  updatedAt: timestamp,
};

const destinationCommon = {
  id: z.uuid(),
  beneficiaryId: z.uuid(),
  countryIso: alpha2,
  countryName: z.string(),
  currencyCode: z.string().check(z.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code')),
  region: z.string().check(z.describe('The continent.')),
  verificationStatus: z
    .enum(['NOT_REQUIRED', 'PENDING', 'APPROVED', 'REJECTED'])
    .check(z.describe('CRYPTO: NOT_REQUIRED; BANK and MOBILE_MONEY: PENDING until decided, once.')),
  verifyAsMe: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
};

export const paymentDestinationResource = z.discriminatedUnion('method', [
  z.strictObject({
    ...destinationCommon,
    method: z.literal('BANK'),
    accountNumber: masked,
    bankCode: z.string(),
    accountHolderName: z.string(),
    bankName: z.optional(z.string()),
    accountType: z.optional(z.enum(ACCOUNT_TYPES)),
  }),
  z.strictObject({
    ...destinationCommon,
    method: z.literal('MOBILE_MONEY'),
    mobileNumber: masked,
    provider: z.string(),
  }),
  z.strictObject({
    ...destinationCommon,
    method: z.literal('CRYPTO'),
    networkName: z.string(),
    assetSymbol: z.string(),
    walletAddress: z
      .string()
      .check(z.regex(/^[GM][A-Z2-7]{55,}$/, 'must be a Stellar account or muxed account')),
  }),
]);
export const paymentDestinationPage = pageOf(paymentDestinationResource);

/** A beneficiary; `extra` adds members some routes answer with (GET one nests its destinations). */
const beneficiaryWith = <T extends z.core.$ZodLooseShape>(extra: T) =>
  z.discriminatedUnion('kind', [
    z.strictObject({ ...common, kind: z.literal('individual'), individual: individualResource, ...extra }),
    z.strictObject({ ...common, kind: z.literal('business'), business: businessResource, ...extra }),
  ]);

export const beneficiaryResource = beneficiaryWith({});
export const beneficiaryWithDestinationsResource = beneficiaryWith({
  paymentDestinations: z.array(paymentDestinationResource),
});
export const beneficiaryPage = pageOf(beneficiaryResource);

const beneficiaryId = '7d3f1a9c-2b4e-4f6a-8c0d-1e2f3a4b5c6d';
const stamps = { createdAt: '2025-03-02T08:00:00.000Z', updatedAt: '2025-03-02T08:00:00.000Z' };

export const paymentDestinationExample: z.input<typeof paymentDestinationResource> = {
  id: '9a8b7c6d-5e4f-4a3b-9c1d-0e1f2a3b4c5d',
  beneficiaryId,
  method: 'BANK',
  countryIso: 'ZA',
  countryName: 'South Africa',
  currencyCode: 'ZAR',
  region: 'Africa',
  accountNumber: '******6789',
  bankCode: '250655',
  accountHolderName: 'Thandi Nkosi',
  bankName: 'First National Bank',
  accountType: 'CURRENT',
  verificationStatus: 'PENDING',
  verifyAsMe: false,
  ...stamps,
};

/** The examples' person: the beneficiary's and the creation request's. */
export const individualExample = {
  firstName: 'Thandi',
  lastName: 'Nkosi',
  dateOfBirth: '1990-04-12',
  idType: 'NATIONAL_ID',
  idNumber: '9004120123087',
  idCountryIsoCode2: 'ZA',
  mobile: '+27821234567',
} as const;

export const beneficiaryExample: z.input<typeof beneficiaryResource> = {
  id: beneficiaryId,
  kind: 'individual',
  individual: individualExample,
  addresses: [{ line1: '12 Long Street', city: 'Cape Town', postalCode: '8001', countryIsoCode2: 'ZA' }],
  tags: [{ key: 'crm.id', value: 'C-1042' }],
  classification: 'Unverified',
  unverifiedTier: 'TIER_1',
  ...stamps,
};

export const beneficiaryWithDestinationsExample: z.input<typeof beneficiaryWithDestinationsResource> = {
  ...beneficiaryExample,
  paymentDestinations: [paymentDestinationExample],
};
