import { pageQueryShape } from '../http/pagination.ts';
import * as z from '../zod.ts';

/** Stellar asset codes: 1-12 letters or digits. Matched case-insensitively; the registry stores them upper-case. */
export const assetCodeParam = z.pipe(
  z.string().check(z.regex(/^[A-Za-z0-9]{1,12}$/, 'must be 1 to 12 letters or digits')),
  z.transform((code: string) => code.toUpperCase()),
);

const stellarAccountId = z.string().check(z.regex(/^G[A-Z2-7]{55}$/, 'must be a Stellar public key (G…)'));

/** An entry of the asset registry: what `GET /assets` returns and what the admin CLI loads. */
export const assetRecord = z.strictObject({
  assetCode: z.string().check(z.regex(/^[A-Z0-9]{1,12}$/, 'must be 1 to 12 upper-case letters or digits')),
  /** null only for the network's native asset (XLM). */
  assetIssuer: z.nullable(stellarAccountId),
  assetType: z.enum(['native', 'credit_alphanum4', 'credit_alphanum12']),
  name: z.string().check(z.minLength(1), z.maxLength(80)),
  /** Decimal places amounts are quoted in; the ledger itself keeps 7. */
  decimals: z.number().check(z.int(), z.gte(0), z.lte(7)),
  networkName: z.string().check(z.minLength(1)),
});

export type Asset = z.infer<typeof assetRecord>;

export const assetRegistryFile = z.array(assetRecord);

export const listAssetsQuery = z.strictObject(pageQueryShape);
