// What POST /quotes answers (service.ts toQuoteResource): figures are JSON numbers, each rounded to
// its currency's minor units.
import * as z from '../zod.ts';

const currency = z.string().check(z.regex(/^[A-Z0-9]{1,12}$/, 'must be a currency or asset code'));

export const quoteResource = z.strictObject({
  quoteId: z.uuid(),
  type: z.enum(['offramp', 'onramp']),
  connectorId: z.string(),
  transactionType: z.enum(['C2C', 'C2B', 'B2C', 'B2B']),
  beneficiaryId: z.nullable(z.uuid()),
  paymentDestinationId: z.nullable(z.uuid()),
  sendAmount: z.number().check(z.positive()),
  sendCurrency: currency,
  receiveAmount: z.number().check(z.positive()),
  receiveCurrency: currency,
  fee: z.number().check(z.gte(0)),
  feeCurrency: currency,
  total: z.number().check(z.positive(), z.describe('sendAmount + fee (off-ramp); sendAmount (on-ramp).')),
  rate: z.number().check(z.positive(), z.describe('Fiat units per one unit of the ledger asset.')),
  expiresAt: z.iso.datetime().check(z.describe('createdAt + QUOTE_TTL_SECONDS (120).')),
  createdAt: z.iso.datetime(),
});

export const quoteExample: z.input<typeof quoteResource> = {
  quoteId: '4c2a1b0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d',
  type: 'offramp',
  connectorId: 'za-bank-offramp-usdc-zar',
  transactionType: 'B2C',
  beneficiaryId: '7d3f1a9c-2b4e-4f6a-8c0d-1e2f3a4b5c6d',
  paymentDestinationId: '9a8b7c6d-5e4f-4a3b-9c1d-0e1f2a3b4c5d',
  sendAmount: 100,
  sendCurrency: 'USDC',
  receiveAmount: 1850,
  receiveCurrency: 'ZAR',
  fee: 1.5,
  feeCurrency: 'USDC',
  total: 101.5,
  rate: 18.5,
  expiresAt: '2025-03-02T08:02:00.000Z',
  createdAt: '2025-03-02T08:00:00.000Z',
};
