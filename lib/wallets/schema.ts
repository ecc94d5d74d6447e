// Wallet requests (docs/decisions/request-validation.md). Shape errors are 400s here; whether a country or an
// asset exists is checked by the service (422), because a well-formed value can still name nothing.
import { assetCodeParam } from '../assets/schema.ts';
import { pageQueryShape } from '../http/pagination.ts';
import { uuidField } from '../http/uuid-field.ts';
import { amountField } from '../ledger/amount-field.ts';
import * as z from '../zod.ts';

const text = (max: number) =>
  z.string().check(z.trim(), z.minLength(1, 'must not be blank'), z.maxLength(max));
const countryCode = z
  .string()
  .check(z.regex(/^[A-Za-z]{2,3}$/, 'must be an ISO 3166-1 alpha-2 or alpha-3 code'));
const isoDate = z.iso.date('must be a date, YYYY-MM-DD');

export const personMetadata = z.strictObject({
  entityType: z.literal('Person'),
  firstName: text(100),
  lastName: text(100),
  dateOfBirth: isoDate,
  idType: z.enum(['NATIONAL_ID', 'PASSPORT', 'DRIVERS_LICENSE']),
  idNumber: text(50),
  nationality: countryCode,
});

export const businessMetadata = z.strictObject({
  entityType: z.literal('Business'),
  registeredName: text(200),
  registrationNumber: text(50),
  registrationCountry: countryCode,
});

export const walletMetadata = z.discriminatedUnion('entityType', [personMetadata, businessMetadata]);
export type WalletMetadata = z.infer<typeof walletMetadata>;

export const createWalletBody = z
  .strictObject({
    walletName: text(100),
    assetCode: assetCodeParam,
    ownAccount: z._default(z.boolean(), false),
    metadata: z.optional(walletMetadata),
  })
  .check(
    z.superRefine((body, ctx) => {
      if (!body.ownAccount && !body.metadata) {
        ctx.addIssue({
          code: 'custom',
          path: ['metadata'],
          message: 'is required when ownAccount is false (the third party’s FICA details)',
        });
      }
    }),
  );
export type CreateWallet = z.infer<typeof createWalletBody>;

export const walletIdParams = z.strictObject({ walletId: uuidField });

export const listWalletsQuery = z.strictObject({
  ...pageQueryShape,
  assetCode: z.optional(assetCodeParam),
  networkName: z.optional(z.string().check(z.minLength(1), z.maxLength(50))),
});

export const kycDecisionBody = z.strictObject({ decision: z.enum(['Verified', 'Rejected']) });

export const fundWalletBody = z.strictObject({
  assetCode: assetCodeParam,
  amount: amountField,
});
