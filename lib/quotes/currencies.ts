// Minor units of what a quote is denominated in: a ledger asset's quoting decimals come from the asset
// registry of the environment (USDC and EURC: 2, XLM: 7); a fiat currency's from ISO 4217 (KES: 2, XAF: 0).
import { findRegistryAsset } from '../assets/service.ts';
import { minorUnitsOf } from '../reference/currencies.ts';
import type { Environment } from '../tenant.ts';

export async function assetDecimals(environment: Environment, assetCode: string): Promise<number> {
  const asset = await findRegistryAsset(environment, assetCode);
  // The catalogue loader checks every connector's asset against the registry: this is a platform fault.
  if (!asset) throw new Error(`Asset ${assetCode} is not in the ${environment} registry`);
  return asset.decimals;
}

export function fiatDecimals(currency: string): number {
  const digits = minorUnitsOf(currency);
  if (digits === undefined) throw new Error(`${currency} is not an ISO 4217 currency`);
  return digits;
}
