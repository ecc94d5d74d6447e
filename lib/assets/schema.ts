import * as z from 'zod';
import { pageQueryShape } from '../http/pagination.ts';

/** Stellar asset codes: 1-12 letters or digits. Matched case-insensitively; the registry stores them upper-case. */
export const assetCodeParam = z
  .string()
  .regex(/^[A-Za-z0-9]{1,12}$/, 'must be 1 to 12 letters or digits')
  .transform((code) => code.toUpperCase());

const stellarAccountId = z.string().regex(/^G[A-Z2-7]{55}$/, 'must be a Stellar public key (G…)');

/** An entry of the asset registry: what `GET /assets` returns and what the admin CLI loads. */
export const assetRecord = z.strictObject({
  assetCode: z.string().regex(/^[A-Z0-9]{1,12}$/, 'must be 1 to 12 upper-case letters or digits'),
  /** null only for the network's native asset (XLM). */
  assetIssuer: stellarAccountId.nullable(),
  assetType: z.enum(['native', 'credit_alphanum4', 'credit_alphanum12']),
  name: z.string().min(1).max(80),
  /** Decimal places amounts are quoted in; the ledger itself keeps 7. */
  decimals: z.number().int().min(0).max(7),
  networkName: z.string().min(1),
});

export type Asset = z.infer<typeof assetRecord>;

export const assetRegistryFile = z.array(assetRecord);

export const listAssetsQuery = z.strictObject(pageQueryShape);
