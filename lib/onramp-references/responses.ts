// What the on-ramp reference routes answer (the contract's on-ramp reference resource).
import * as z from '../zod.ts';
import type { ReferenceRecord } from './repo.ts';

export const referenceResource = z.strictObject({
  reference: z.string().check(z.describe('What the customer quotes when paying the provider.')),
  routeId: z.uuid(),
  customerId: z.string(),
  connectorId: z.string(),
  walletId: z.uuid().check(z.describe('One of the caller’s own wallets: where receipts are paid.')),
  settlementAccount: z
    .string()
    .check(z.describe('The connector’s settlement account on the ledger: it pays receipts into the wallet.')),
  isActive: z.boolean().check(z.describe('Receipts on an inactive reference are held, not paid.')),
  created: z.iso.datetime(),
});

export const toReferenceResource = (record: ReferenceRecord): z.infer<typeof referenceResource> => ({
  reference: record.reference,
  routeId: record.routeId,
  customerId: record.customerId,
  connectorId: record.connectorId,
  walletId: record.walletId,
  settlementAccount: record.settlementAccount,
  isActive: record.isActive,
  created: record.createdAt,
});

export const referenceExample: z.infer<typeof referenceResource> = {
  reference: 'PG4821937705',
  routeId: '5e2d8c1a-7b4f-4e3a-9d6c-2f1e0a9b8c7d',
  customerId: 'cust-00412',
  connectorId: 'za-bank-onramp-zar-usdc',
  walletId: '3c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f',
  settlementAccount: 'GBZXN7PIRZGNMHGA7MUUUF4GWPY5AYPV6LY4UV2GL6VJGIQRXFDNMADI',
  isActive: true,
  created: '2026-11-23T09:31:00.000Z',
};

export const referencePage = z.strictObject({
  data: z.array(referenceResource),
  pageNumber: z.number().check(z.int()),
  pageSize: z.number().check(z.int()),
  count: z.number().check(z.int(), z.describe('How many references match the filters, on every page.')),
});

export const referenceList = z.strictObject({ data: z.array(referenceResource) });

/** What the sandbox receipt helper answers. */
export const sandboxReceiptResource = z.strictObject({
  reference: z.string(),
  receiptId: z.string(),
  amount: z.number(),
  currency: z.string(),
  message: z.string(),
});
