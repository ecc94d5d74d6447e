// What the asset routes answer. repo.ts builds each asset from exactly the registry entry's members,
// so the registry entry's schema is the resource's schema.
import type * as z from 'zod';
import { pageOf } from '../http/responses.ts';
import { assetRecord } from './schema.ts';

export const assetResource = assetRecord;
export const assetPage = pageOf(assetResource);

export const assetExample: z.input<typeof assetResource> = {
  assetCode: 'USDC',
  assetIssuer: 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5',
  assetType: 'credit_alphanum4',
  name: 'USD Coin',
  decimals: 2,
  networkName: 'stellar-testnet',
};
