// What every local start puts in the (empty, in-memory) table and on the (new) local ledgers: the
// platform accounts (connectors' settlement accounts included), the asset registries and connector
// catalogues, the providers' secrets, the ledgers' genesis and one sandbox tenant.
import { readFileSync } from 'node:fs';
import { loadConnectorCatalogue } from '../lib/admin/connectors.ts';
import { sandboxRegistry } from '../lib/admin/sandbox-assets.ts';
import { LOCAL_POOL_DEPTH, sandboxPools } from '../lib/admin/sandbox-liquidity.ts';
import { createTenant } from '../lib/admin/tenants.ts';
import { seedRegistries } from '../lib/assets/registry-seed.ts';
import { putAsset } from '../lib/assets/repo.ts';
import type { Asset } from '../lib/assets/schema.ts';
import { config } from '../lib/config.ts';
import { ensureChannelKeys } from '../lib/ledger/channels.ts';
import { ensurePlatformAccount } from '../lib/ledger/platform-accounts.ts';
import { addMember } from '../lib/people/service.ts';
import { ensureProviderSecret } from '../lib/providers/repo.ts';
import type { Environment } from '../lib/tenant.ts';
import type { LedgerAsset, LedgerGenesis } from './ledger/index.ts';
import type { SimulatedConnector } from './provider-simulator.ts';

/** The sandbox tenant's first portal owner (npm start prints it; .local/credentials.json names it). */
export const SANDBOX_OWNER_EMAIL = 'owner@sandbox.test';

/** Plenty for every test and tester: the funding account pays fees and opens every wallet. */
const FUNDING_XLM = '100000000';
const ISSUER_XLM = '10000';
/** A channel account only needs its own reserve: the funding account fee-bumps what it submits. */
const CHANNEL_XLM = '10';
/** A settlement account holds its reserve and one trustline; fees are fee-bumped by funding. */
const SETTLEMENT_XLM = '10';
/** What a sandbox on-ramp connector's settlement account starts with, to pay wallets out of. */
const SANDBOX_ONRAMP_FLOAT = '1000000';

/** The connector catalogue kept in the repository; both environments load it (after their asset registry). */
const CONNECTOR_CATALOGUE: unknown = JSON.parse(
  readFileSync(new URL('../seed/connectors.json', import.meta.url), 'utf8'),
);

async function registryOf(environment: Environment): Promise<Asset[]> {
  // Sandbox assets are issued by platform accounts whose keys we hold, so the sandbox helpers can mint
  // test money; production keeps the real issuers.
  return environment === 'production' ? seedRegistries.production : sandboxRegistry();
}

/** A connector's ledger settlement account: the registry asset it takes in or pays out, and its float. */
interface SettlementAccount {
  publicKey: string;
  assetCode: string;
  balance: string;
}

interface SeedConnector {
  id: string;
  direction: 'ON_RAMP' | 'OFF_RAMP';
  acceptedAsset: string;
  destinationAsset: string;
}

function genesisOf(
  environment: Environment,
  registry: Asset[],
  fundingKey: string,
  channelKeys: string[],
  settlements: SettlementAccount[],
): LedgerGenesis {
  const ledgerAsset = (code: string): LedgerAsset => {
    const asset = registry.find((a) => a.assetCode === code);
    if (!asset) throw new Error(`No ${code} in the ${environment} registry`);
    return asset.assetIssuer === null ? 'native' : { code: asset.assetCode, issuer: asset.assetIssuer };
  };
  return {
    accounts: [
      { publicKey: fundingKey, nativeBalance: FUNDING_XLM },
      ...channelKeys.map((publicKey) => ({ publicKey, nativeBalance: CHANNEL_XLM })),
      ...registry.flatMap((a) =>
        a.assetIssuer ? [{ publicKey: a.assetIssuer, nativeBalance: ISSUER_XLM }] : [],
      ),
      // As if the issuer had paid each its float: trustline and balance from the start.
      ...settlements.map((s) => {
        const asset = ledgerAsset(s.assetCode);
        return {
          publicKey: s.publicKey,
          nativeBalance: SETTLEMENT_XLM,
          trustlines: asset === 'native' ? [] : [{ asset, balance: s.balance }],
        };
      }),
    ],
    // The sandbox's pools at its reference rates, deep; a deployed sandbox opens shallower ones
    // (`admin ledger sandbox-liquidity`). Production's ledger is the public network's: none of ours.
    pools:
      environment === 'sandbox'
        ? sandboxPools(LOCAL_POOL_DEPTH).map((p) => ({
            assetA: ledgerAsset(p.base),
            assetB: ledgerAsset(p.quote),
            reserveA: p.baseAmount,
            reserveB: p.quoteAmount,
          }))
        : [],
  };
}

/**
 * Each connector's settlement account (platform role `settlement:<connectorId>`) and provider secret,
 * for every connector whose ledger side is a registry asset (BESPOKE ones included: their payouts land
 * there too).
 */
async function connectorAccounts(
  environment: Environment,
  registry: Asset[],
): Promise<{ settlements: SettlementAccount[]; simulated: SimulatedConnector[] }> {
  const settlements: SettlementAccount[] = [];
  const simulated: SimulatedConnector[] = [];
  for (const connector of CONNECTOR_CATALOGUE as SeedConnector[]) {
    const assetCode =
      connector.direction === 'OFF_RAMP' ? connector.acceptedAsset : connector.destinationAsset;
    if (!registry.some((a) => a.assetCode === assetCode)) continue;
    const account = await ensurePlatformAccount(environment, `settlement:${connector.id}`);
    const float = environment === 'sandbox' && connector.direction === 'ON_RAMP' ? SANDBOX_ONRAMP_FLOAT : '0';
    settlements.push({ publicKey: account.publicKey, assetCode, balance: float });
    simulated.push({
      environment,
      connectorId: connector.id,
      secret: await ensureProviderSecret(environment, connector.id),
    });
  }
  return { settlements, simulated };
}

export async function seedLocalData(): Promise<{
  tenant: Awaited<ReturnType<typeof createTenant>>;
  genesis: Record<Environment, LedgerGenesis>;
  /** The connectors the provider simulator serves, with their secrets. */
  simulated: SimulatedConnector[];
}> {
  // The two environments' items are apart (every key names its environment): seeded side by side.
  const seeded = await Promise.all(
    (['sandbox', 'production'] as const).map(async (environment) => {
      const funding = await ensurePlatformAccount(environment, 'funding');
      const registry = await registryOf(environment);
      for (const asset of registry) await putAsset(environment, asset);
      await loadConnectorCatalogue(environment, CONNECTOR_CATALOGUE);
      const channels = await ensureChannelKeys(environment, config().LEDGER_CHANNELS);
      const connectors = await connectorAccounts(environment, registry);
      const ledger = genesisOf(
        environment,
        registry,
        funding.publicKey,
        channels.map((channel) => channel.publicKey),
        connectors.settlements,
      );
      return { environment, ledger, simulated: connectors.simulated };
    }),
  );
  const genesis = Object.fromEntries(seeded.map((s) => [s.environment, s.ledger])) as Record<
    Environment,
    LedgerGenesis
  >;
  const simulated = seeded.flatMap((s) => s.simulated);
  const tenant = await createTenant({
    name: 'Local Sandbox Business',
    environment: 'sandbox',
    kind: 'business',
  });
  // The portal's first owner: signs in with this address, the code arrives in the SES emulator.
  await addMember(tenant, { email: SANDBOX_OWNER_EMAIL, role: 'owner' }, null, new Date());
  return { tenant, genesis, simulated };
}
