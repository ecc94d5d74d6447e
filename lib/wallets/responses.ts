// What the wallet routes and the wallet sandbox helpers answer (toWalletResource below; sandbox.ts
// fundWallet). Secrets never appear, so every object is closed.
import { pageOf } from '../http/responses.ts';
import type { LedgerBalance } from '../ledger/balances.ts';
import * as z from '../zod.ts';
import type { WalletRecord } from './repo.ts';

const stellarAccount = z.string().check(z.regex(/^G[A-Z2-7]{55}$/, 'must be a Stellar public key (G…)'));
const timestamp = z.iso.datetime();
const alpha3 = z.string().check(z.regex(/^[A-Z]{3}$/, 'must be an ISO 3166-1 alpha-3 code'));

const ledgerDecimal = () =>
  z.string().check(z.regex(/^\d+\.\d{7}$/, 'must be a decimal string with 7 places'));

export const balanceResource = z.strictObject({
  assetCode: z.string().check(z.minLength(1), z.describe('`XLM` for the native asset.')),
  balance: ledgerDecimal().check(z.describe('A decimal string with the ledger’s 7 places.')),
  assetIssuer: z.nullable(stellarAccount).check(z.describe('null for XLM.')),
  assetType: z.enum(['native', 'credit_alphanum4', 'credit_alphanum12']),
  spendable: ledgerDecimal().check(
    z.describe(
      'What a payment can take of `balance` now, never negative: the balance less its selling liabilities ' +
        '(open offers) and, for XLM, less the account’s minimum reserve, base reserve (0.5 XLM) × (2 + ' +
        'subentries + sponsoring − sponsored), which the ledger never lets an account spend. A payment ' +
        'from the wallet (amount plus fee where one applies) over it is refused at acceptance with 422 ' +
        'on `amount`.',
    ),
  ),
});

/** FICA metadata as stored: countries normalised to alpha-3. */
const walletMetadata = z.discriminatedUnion('entityType', [
  z.strictObject({
    entityType: z.literal('Person'),
    firstName: z.string(),
    lastName: z.string(),
    dateOfBirth: z.iso.date(),
    idType: z.enum(['NATIONAL_ID', 'PASSPORT', 'DRIVERS_LICENSE']),
    idNumber: z.string(),
    nationality: alpha3,
  }),
  z.strictObject({
    entityType: z.literal('Business'),
    registeredName: z.string(),
    registrationNumber: z.string(),
    registrationCountry: alpha3,
  }),
]);

const balances = z
  .nullable(z.array(balanceResource))
  .check(z.describe('[] while the account is being opened; null when the ledger cannot be read.'));

export const walletResource = z.strictObject({
  id: z.uuid(),
  walletName: z.string(),
  assetCode: z.string(),
  ownAccount: z.boolean(),
  status: z.enum(['Pending', 'Verified', 'Rejected']).check(z.describe('The KYC status.')),
  accountNumber: stellarAccount.check(
    z.describe('The wallet’s ledger account (the same value as publicKey).'),
  ),
  networkName: z.string().check(z.describe('`stellar-testnet` (sandbox) or `stellar-pubnet` (production).')),
  publicKey: stellarAccount,
  activationStatus: z.enum(['pending', 'active', 'failed']).check(z.describe('Where the ledger account is.')),
  activationErrorCode: z.optional(z.string()).check(z.describe('Only when activationStatus is failed.')),
  activationFailureReason: z.optional(z.string()).check(z.describe('Only when activationStatus is failed.')),
  balances,
  metadata: z
    .nullable(walletMetadata)
    .check(z.describe('FICA details of a third party; null when none were given.')),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export const walletPage = pageOf(walletResource);

const fundingRequest = {
  walletId: z.uuid(),
  assetCode: z.string(),
  amount: z.number().check(z.positive()),
};

/** 200: the payment is in a closed ledger. */
export const sandboxFundingResource = z.strictObject({
  ...fundingRequest,
  status: z.literal('succeeded'),
  stellarTxHash: z.string().check(z.regex(/^[0-9a-f]{64}$/, 'must be a transaction hash')),
});

/** 202: the payment is sent but not confirmed yet (a slow ledger); a retry with the same key resumes it. */
export const sandboxFundingPendingResource = z.strictObject({
  ...fundingRequest,
  status: z.literal('pending'),
  // A string once confirmed (then the answer is the 200 resource): typed as one so that generated clients
  // keep the member (a schema of null alone vanishes from them).
  stellarTxHash: z.nullable(z.string()).check(z.describe('null until the ledger has confirmed the payment.')),
});

const walletId = '0f8c2d4e-6a1b-4c3d-8e5f-7a9b0c1d2e3f';
const publicKey = 'GCFXHS4GXL6BVUCXBWXGTITROWLVYXQKQLF4YH5O5JT3YZXCYPAFBJZB';

export const balanceExample: z.input<typeof balanceResource> = {
  assetCode: 'USDC',
  balance: '1000.0000000',
  assetIssuer: 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5',
  assetType: 'credit_alphanum4',
  spendable: '1000.0000000',
};

export const walletExample: z.input<typeof walletResource> = {
  id: walletId,
  walletName: 'Supplier',
  assetCode: 'USDC',
  ownAccount: false,
  status: 'Verified',
  accountNumber: publicKey,
  networkName: 'stellar-testnet',
  publicKey,
  activationStatus: 'active',
  balances: [
    {
      assetCode: 'XLM',
      balance: '1.5000000',
      assetIssuer: null,
      assetType: 'native',
      spendable: '0.0000000',
    },
    balanceExample,
  ],
  metadata: {
    entityType: 'Business',
    registeredName: 'Acme Trading',
    registrationNumber: '2019/123456/07',
    registrationCountry: 'KEN',
  },
  createdAt: '2025-03-01T09:30:00.000Z',
  updatedAt: '2025-03-01T09:31:12.000Z',
};

export const sandboxFundingExample: z.input<typeof sandboxFundingResource> = {
  walletId,
  assetCode: 'USDC',
  amount: 1000,
  status: 'succeeded',
  stellarTxHash: '3b7d5a0c9e1f2a4b6c8d0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a1b',
};

export const sandboxFundingPendingExample: z.input<typeof sandboxFundingPendingResource> = {
  walletId,
  assetCode: 'USDC',
  amount: 1000,
  status: 'pending',
  stellarTxHash: null,
};

/** A wallet as the API answers it: here, apart from the service, so the webhook functions (an event's
 * wallet) take the shape without the ledger reads. */
export function toWalletResource(record: WalletRecord, balances: LedgerBalance[] | null) {
  return {
    id: record.walletId,
    walletName: record.walletName,
    assetCode: record.assetCode,
    ownAccount: record.ownAccount,
    status: record.status,
    accountNumber: record.publicKey,
    networkName: record.networkName,
    publicKey: record.publicKey,
    activationStatus: record.activationStatus,
    ...(record.activationStatus === 'failed'
      ? {
          activationErrorCode: record.activationErrorCode,
          activationFailureReason: record.activationFailureReason,
        }
      : {}),
    balances,
    metadata: record.metadata,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
