// What the statement route answers (the contract's statement): the range's lines for one asset with the
// balance before the range and at its end, in the API's page envelope. `Accept: text/csv` gives the
// same page as CSV (csv.ts).
import { pageOf } from '../http/responses.ts';
import * as z from '../zod.ts';

const amount = z
  .number()
  .check(
    z.describe('Exact to the ledger’s 7 decimal places, written in plain decimals (0.0000001, never 1e-7).'),
  );
const second = z.iso.datetime().check(z.describe('ISO 8601 UTC, to the second (ledger close times are).'));

export const statementLine = z.strictObject({
  rowId: z
    .string()
    .check(
      z.describe(
        'The ledger’s own id of the movement (its effect: operation id and position): stable, the same on every export, unique within the wallet’s statement; use it as a dedupe key.',
      ),
    ),
  date: second.check(z.describe('When the ledger closed the movement.')),
  direction: z.enum(['credit', 'debit']),
  amount: amount.check(z.describe('Always positive; `direction` gives the sign.')),
  assetCode: z.string(),
  runningBalance: amount.check(
    z.describe('The wallet’s balance of the asset after this line, on the ledger.'),
  ),
  description: z
    .string()
    .check(
      z.describe(
        'The payment’s title where a record explains the line (“P2P to Treasury”, “Swap USDC → EURC”, “Payout to Amina Odhiambo (KE mobile money)”), else what the ledger says (“Received from G…ABCD”, “Sandbox funding”, “Account opened”).',
      ),
    ),
  reference: z
    .nullable(z.string())
    .check(
      z.describe('The wallet’s own reference for the leg: the sender’s `fromRef`, the recipient’s `toRef`.'),
    ),
  transactionRecordId: z.nullable(z.uuid()).check(z.describe('The record the line belongs to, if any.')),
  transactionType: z.nullable(z.string()).check(z.describe('That record’s `type`.')),
  counterparty: z
    .nullable(z.string())
    .check(z.describe('The other account of the movement on the ledger (who paid, or who was paid).')),
  stellarTxHash: z.string(),
});

/** The page envelope of every list, with what a statement adds: the asset, the range and its balances. */
export const statementResource = z.extend(pageOf(statementLine), {
  walletId: z.uuid(),
  assetCode: z.string(),
  assetIssuer: z.nullable(z.string()),
  startDate: second.check(z.describe('The range’s first second as read.')),
  endDate: second.check(z.describe('The range’s last second as read (now, for a range that ends today).')),
  openingBalance: amount.check(z.describe('The balance before the range’s first second.')),
  closingBalance: amount.check(z.describe('The balance at the range’s last second.')),
});

export const statementExample = {
  walletId: '3c9d2f4e-8a1b-4c6d-9e0f-1a2b3c4d5e6f',
  assetCode: 'USDC',
  assetIssuer: 'GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN',
  startDate: '2026-11-01T00:00:00Z',
  endDate: '2026-11-30T23:59:59Z',
  openingBalance: 100,
  closingBalance: 74.5,
  data: [
    {
      rowId: '0000012884905985-0000000002',
      date: '2026-11-12T09:30:05Z',
      direction: 'debit',
      amount: 25.5,
      assetCode: 'USDC',
      runningBalance: 74.5,
      description: 'P2P to Treasury',
      reference: 'RENT-11',
      transactionRecordId: '7b0e3f0a-5c1d-4e2f-8a9b-0c1d2e3f4a5b',
      transactionType: 'p2p',
      counterparty: 'GCFXHS4GXL6BVUCXBWXGTITROWLVYXQKQLF4YH5O5JT3YZXCYPAFBJZB',
      stellarTxHash: '5f1b1c0e9d8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c',
    },
  ],
  pagination: { nextCursor: null, hasMore: false },
};
