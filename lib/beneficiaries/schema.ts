// Beneficiary and payment destination requests (docs/decisions/request-validation.md). Shape errors are 400s
// here; whether a country, currency, asset or network exists, and whether a mobile number belongs to the
// destination's country, is checked by the service (422): a well-formed value can still name nothing.
import { assetCodeParam } from '../assets/schema.ts';
import { pageQueryShape } from '../http/pagination.ts';
import { uuidParams } from '../http/uuid-field.ts';
import { isAccountAddress, isMuxedAccountAddress } from '../ledger/account-address.ts';
import { isValidPhoneNumber } from '../reference/phone-numbers.ts';
import * as z from '../zod.ts';
import { bankRuleFor } from './bank-rules.ts';

const text = (max: number) =>
  z.string().check(z.trim(), z.minLength(1, 'must not be blank'), z.maxLength(max));

/** ISO 3166-1 alpha-2 in any case, kept upper case; whether it is a real country is the service's 422. */
export const countryCode2 = z.pipe(
  z.string().check(z.regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code (two letters)')),
  z.transform((code: string) => code.toUpperCase()),
);

const currencyCode3 = z.pipe(
  z.string().check(z.regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 currency code (three letters)')),
  z.transform((code: string) => code.toUpperCase()),
);

/** E.164: `+`, country code, subscriber number; a number no numbering plan allows is malformed too. */
export const e164 = z.string().check(
  z.regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 phone number (+ and 7 to 15 digits)'),
  z.refine((value) => isValidPhoneNumber(value), 'is not a valid phone number'),
);

const dateOfBirth = z.iso
  .date('must be a date, YYYY-MM-DD')
  .check(z.refine((value) => value <= new Date().toISOString().slice(0, 10), 'must not be in the future'));

export const email = z.email('must be an email address').check(z.maxLength(254));

export const ID_TYPES = ['NATIONAL_ID', 'PASSPORT', 'DRIVERS_LICENSE'] as const;

/** How a person or a business is reached: both optional, a notice needs one. */
const contactShape = { email: z.optional(email), mobile: z.optional(e164) };

export const individual = z.strictObject({
  firstName: text(100),
  lastName: text(100),
  dateOfBirth: z.optional(dateOfBirth),
  idType: z.optional(z.enum(ID_TYPES)),
  idNumber: z.optional(text(50)),
  idCountryIsoCode2: z.optional(countryCode2),
  ...contactShape,
});
export type Individual = z.infer<typeof individual>;

export const business = z.strictObject({
  registeredName: text(200),
  registrationNumber: z.optional(text(50)),
  countryIsoCode2: z.optional(countryCode2),
  ...contactShape,
});
export type Business = z.infer<typeof business>;

export const address = z.strictObject({
  line1: text(200),
  line2: z.optional(text(200)),
  city: text(100),
  region: z.optional(text(100)),
  postalCode: z.optional(text(20)),
  countryIsoCode2: countryCode2,
});
export type Address = z.infer<typeof address>;

/** Tags are `{key, value}` pairs; keys are unique within a beneficiary. */
export const tag = z.strictObject({
  key: z.string().check(z.regex(/^[A-Za-z0-9_.:-]{1,50}$/, 'must be 1 to 50 letters, digits, _ . : or -')),
  value: z.string().check(z.maxLength(200)),
});
export type Tag = z.infer<typeof tag>;

export const MAX_ADDRESSES = 5;
export const MAX_TAGS = 20;

const tags = z.array(tag).check(
  z.maxLength(MAX_TAGS, `must have at most ${MAX_TAGS} tags`),
  z.superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((t, i) => {
      if (seen.has(t.key)) ctx.addIssue({ code: 'custom', path: [i, 'key'], message: 'is a duplicate key' });
      seen.add(t.key);
    });
  }),
);

const addresses = z
  .array(address)
  .check(z.maxLength(MAX_ADDRESSES, `must have at most ${MAX_ADDRESSES} addresses`));

/** Server-set members: a request that carries one is refused with 400 naming it (`is read-only`). */
export const READ_ONLY_MEMBERS = [
  'id',
  'kind',
  'classification',
  'unverifiedTier',
  'paymentDestinations',
  'createdAt',
  'updatedAt',
] as const;

const readOnlyShape = Object.fromEntries(
  READ_ONLY_MEMBERS.map((member) => [
    member,
    z.optional(z.unknown()).check(
      z.superRefine((value, ctx) => {
        if (value !== undefined) ctx.addIssue({ code: 'custom', message: 'is read-only' });
      }),
      // Documentation only (openapi): JSON Schema's readOnly says "do not send this member".
      z.meta({ readOnly: true, description: 'Read-only: a request that sends it is refused (400).' }),
    ),
  ]),
) as Record<(typeof READ_ONLY_MEMBERS)[number], z.ZodMiniOptional<z.ZodMiniUnknown>>;

/** A body that is not a JSON object is named as such (not as a missing member). */
const jsonObject = <T>(schema: z.ZodMiniType<T>) =>
  z.pipe(
    z.unknown().check(
      z.superRefine((value, ctx) => {
        if (typeof value !== 'object' || value === null || Array.isArray(value))
          ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
      }),
    ),
    schema,
  );

/** A beneficiary's editable content: what POST takes and what a PATCH must still produce. */
export const beneficiaryContent = z.pipe(
  z
    .strictObject({
      individual: z.optional(individual),
      business: z.optional(business),
      addresses: z._default(addresses, []),
      tags: z._default(tags, []),
      ...readOnlyShape,
    })
    .check(
      z.superRefine((body, ctx) => {
        if ((body.individual === undefined) === (body.business === undefined)) {
          const message = 'exactly one of individual or business is required';
          ctx.addIssue({ code: 'custom', path: ['individual'], message });
          ctx.addIssue({ code: 'custom', path: ['business'], message });
        }
      }),
    ),
  z.transform(({ individual, business, addresses, tags }) => ({ individual, business, addresses, tags })),
);
export type BeneficiaryContent = z.infer<typeof beneficiaryContent>;

export const createBeneficiaryBody = jsonObject(beneficiaryContent);

/**
 * A merge patch of an object: each member optional, `null` (remove) allowed, its value of the member's
 * own type. Checked before anything is merged, so a patch of the wrong shape never reaches the merge.
 */
const mergePatchOf = (schema: z.ZodMiniObject) =>
  z.strictObject(
    Object.fromEntries(
      Object.entries(schema.shape).map(([member, type]) => [member, z.optional(z.nullable(type))]),
    ),
  );

/**
 * PATCH is an RFC 7396 merge patch. Its shape is checked here (read-only and unknown members are named
 * with a 400, every value has its member's type; arrays replace); the merged result is then validated
 * by `beneficiaryContent`.
 */
export const updateBeneficiaryBody = jsonObject(
  z.strictObject({
    individual: z.optional(z.nullable(mergePatchOf(individual))),
    business: z.optional(z.nullable(mergePatchOf(business))),
    addresses: z.optional(z.nullable(addresses)),
    tags: z.optional(z.nullable(tags)),
    ...readOnlyShape,
  }),
);
export type BeneficiaryPatch = z.infer<typeof updateBeneficiaryBody>;

export const beneficiaryIdParams = uuidParams('beneficiaryId');
export const destinationIdParams = uuidParams('beneficiaryId', 'destinationId');
export const listBeneficiariesQuery = z.strictObject(pageQueryShape);

// ── payment destinations ───────────────────────────────────────────────────────────────────────

/** Account and bank codes arrive with or without the spaces and hyphens people write them with. */
const compact = (max: number) =>
  z.pipe(
    z.string().check(z.maxLength(max)),
    z.transform((value: string) => value.replace(/[\s-]/g, '')),
  );

const destinationCommon = {
  countryIsoCode2: countryCode2,
  currencyIsoCode3: currencyCode3,
  verifyAsMe: z._default(z.boolean(), false),
};

export const ACCOUNT_TYPES = ['CURRENT', 'SAVINGS', 'CHEQUE', 'TRANSMISSION'] as const;

/** Checked against the country's rule (lib/beneficiaries/bank-rules.ts) once the body is whole. */
export const bankAccountNumber = compact(50);
export const bankCodeField = compact(30);

const bankDestination = z
  .strictObject({
    method: z.literal('BANK'),
    ...destinationCommon,
    accountNumber: bankAccountNumber,
    bankCode: bankCodeField,
    accountHolderName: text(140),
    bankName: z.optional(text(140)),
    accountType: z.optional(z.enum(ACCOUNT_TYPES)),
  })
  .check(
    z.superRefine((body, ctx) => {
      // The country's rules (lib/beneficiaries/bank-rules.ts); a country we hold no rules for gets the default.
      const rule = bankRuleFor(body.countryIsoCode2);
      if (!rule.accountNumber.pattern.test(body.accountNumber))
        ctx.addIssue({
          code: 'custom',
          path: ['accountNumber'],
          message: `must be ${rule.accountNumber.rule}`,
        });
      if (!rule.bankCode.pattern.test(body.bankCode))
        ctx.addIssue({ code: 'custom', path: ['bankCode'], message: `must be ${rule.bankCode.rule}` });
    }),
  );

const mobileMoneyDestination = z.strictObject({
  method: z.literal('MOBILE_MONEY'),
  ...destinationCommon,
  mobileNumber: e164,
  provider: z.pipe(
    z
      .string()
      .check(
        z.trim(),
        z.regex(/^[A-Za-z0-9][A-Za-z0-9 _-]{1,29}$/, 'must be 2 to 30 letters, digits, spaces, _ or -'),
      ),
    z.transform((value: string) => value.toUpperCase()),
  ),
});

const cryptoDestination = z.strictObject({
  method: z.literal('CRYPTO'),
  ...destinationCommon,
  networkName: z.pipe(
    z.string().check(z.regex(/^[A-Za-z0-9-]{1,50}$/, 'must be a network name such as stellar-testnet')),
    z.transform((value: string) => value.toLowerCase()),
  ),
  assetSymbol: assetCodeParam,
  walletAddress: z
    .string()
    .check(
      z.refine(
        (value) => isAccountAddress(value) || isMuxedAccountAddress(value),
        'must be a Stellar account (G…) or muxed account (M…)',
      ),
    ),
});

export const createPaymentDestinationBody = jsonObject(
  z.discriminatedUnion('method', [bankDestination, mobileMoneyDestination, cryptoDestination], {
    error: 'must be BANK, MOBILE_MONEY or CRYPTO',
  }),
);
export type CreatePaymentDestination = z.infer<typeof createPaymentDestinationBody>;

/** The list filter: BANK, MOBILE_MONEY (MOMO is its alias) or CRYPTO, any case. */
export const destinationMethodFilter = z.optional(
  z.pipe(
    z.string(),
    z.transform((value: string, ctx) => {
      const upper = value.toUpperCase();
      const method = upper === 'MOMO' ? 'MOBILE_MONEY' : upper;
      if (method === 'BANK' || method === 'MOBILE_MONEY' || method === 'CRYPTO') return method;
      ctx.issues.push({
        code: 'custom',
        message: 'must be BANK, MOBILE_MONEY (or MOMO) or CRYPTO',
        input: value,
      });
      return z.NEVER;
    }),
  ),
);

export const listPaymentDestinationsQuery = z.strictObject({
  ...pageQueryShape,
  method: destinationMethodFilter,
});
