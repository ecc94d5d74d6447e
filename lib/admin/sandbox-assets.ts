// The sandbox's assets: the registry's entries with issuers of our own. Sandbox tenants are funded with
// test money the platform mints (POST /v1/sandbox/wallets/{id}/fund), so each issued asset's issuer is a
// platform account `issuer:<CODE>` whose keys we hold, not the stablecoin's public test-network issuer.
// The local stack's seed puts them in its ledger's genesis; a deployed stage opens them through the
// ledger admin function (`admin ledger sandbox-assets`).
import { seedRegistries } from '../assets/registry-seed.ts';
import { putAsset } from '../assets/repo.ts';
import type { Asset } from '../assets/schema.ts';
import { ensurePlatformAccount } from '../ledger/platform-accounts.ts';
import { openAccountsOnce } from './platform-openings.ts';

/** An issuer needs its reserve (1 XLM): what it issues is built on channels and fee-bumped by funding. */
export const ISSUER_STARTING_XLM = '2';

/** The sandbox registry with the platform's issuers (their keys made on first use). */
export async function sandboxRegistry(): Promise<Asset[]> {
  return Promise.all(
    seedRegistries.sandbox.map(async (asset) =>
      asset.assetIssuer === null
        ? asset
        : {
            ...asset,
            assetIssuer: (await ensurePlatformAccount('sandbox', `issuer:${asset.assetCode}`)).publicKey,
          },
    ),
  );
}

export interface SandboxAssetsReport {
  assets: Asset[];
  /** The transaction that opened the missing issuers (null when none was missing). */
  openedBy: string | null;
}

/**
 * Opens the issuers of `assets` (sandboxRegistry()) the ledger lacks from the funding account, then
 * writes the registry naming them (only then: an entry never names an issuer that is not on the ledger).
 * Running it again opens nothing.
 */
export async function openSandboxAssets(assets: Asset[]): Promise<SandboxAssetsReport> {
  const issuers = assets.flatMap((asset) => (asset.assetIssuer ? [asset.assetIssuer] : []));
  const openedBy = await openAccountsOnce('sandbox', 'sandbox-issuers', issuers, ISSUER_STARTING_XLM);
  for (const asset of assets) await putAsset('sandbox', asset);
  return { assets, openedBy };
}
