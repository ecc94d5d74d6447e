// The sandbox's swap liquidity: a constant-product pool between each pair of its assets, at the reference
// rates below, which swaps (strict-send path payments, lib/ledger/payments.ts) trade through. The local
// stack's ledger holds them from its genesis (local/seed.ts); a deployed sandbox's ledger (the public
// test network) has none for the platform's own issuers, so `admin ledger sandbox-liquidity` fills them
// from the platform account `liquidity`: the issuers pay it the test money, funding its lumens.
import { createHash } from 'node:crypto';
import BigNumber from 'bignumber.js';
import type { Asset } from '../assets/schema.ts';
import {
  fillEmptyPools,
  isEmpty,
  type PoolDeposit,
  poolIdOf,
  poolReserves,
} from '../ledger/liquidity-pools.ts';
import { findLedgerAccount } from '../ledger/load-account.ts';
import type { LedgerAssetRef } from '../ledger/operations.ts';
import { ensurePlatformAccount } from '../ledger/platform-accounts.ts';
import { findSubmission } from '../ledger/submissions.ts';
import { OPENING_BUDGET_MS, OpeningNotSettled, settledHash } from './platform-openings.ts';

/** The reference rates between the sandbox's assets: one `base` buys `rate` of `quote`. */
export const SANDBOX_POOL_RATES: readonly { base: string; quote: string; rate: string }[] = [
  { base: 'XLM', quote: 'USDC', rate: '0.12' },
  { base: 'XLM', quote: 'EURC', rate: '0.111' },
  { base: 'EURC', quote: 'USDC', rate: '1.08' },
];

/** How much of its base asset each pool holds on the local ledger: deep, so slippage stays realistic. */
export const LOCAL_POOL_DEPTH: Readonly<Record<string, string>> = { XLM: '10000000', EURC: '1000000' };

/**
 * On a deployed sandbox: the XLM is the funding account's test lumens (friendbot gives 10,000), the
 * stablecoins the issuers' test money.
 */
export const DEPLOYED_POOL_DEPTH: Readonly<Record<string, string>> = { XLM: '1000', EURC: '100000' };

export interface SandboxPool {
  base: string;
  quote: string;
  baseAmount: string;
  quoteAmount: string;
}

/** Each reference pair with `depth` of its base and the quote that matches it at the rate. */
export function sandboxPools(depth: Readonly<Record<string, string>>): SandboxPool[] {
  return SANDBOX_POOL_RATES.map(({ base, quote, rate }) => {
    const baseAmount = depth[base];
    if (baseAmount === undefined) throw new Error(`No pool depth for ${base}`);
    return { base, quote, baseAmount, quoteAmount: new BigNumber(baseAmount).times(rate).toFixed() };
  });
}

export interface SandboxPoolStatus {
  /** `BASE/QUOTE`. */
  pair: string;
  id: string;
  /** Each asset's reserve by code; null when the ledger has no such pool. */
  reserves: Record<string, string> | null;
}

export interface SandboxLiquidityReport {
  provider: string;
  pools: SandboxPoolStatus[];
  /** The transaction that filled the empty pools; null when none was empty (nothing was submitted). */
  openedBy: string | null;
  summary: string;
}

/** The registry's asset of `code` as the ledger names it. */
function ledgerAssetOf(registry: Asset[], code: string): LedgerAssetRef | 'native' {
  const asset = registry.find((a) => a.assetCode === code);
  if (!asset) throw new Error(`No ${code} in the sandbox registry`);
  return asset.assetIssuer === null ? 'native' : { code: asset.assetCode, issuer: asset.assetIssuer };
}

/** The reference pools between `registry`'s assets (the sandbox registry), with `depth`. */
export function poolDeposits(registry: Asset[], depth: Readonly<Record<string, string>>): PoolDeposit[] {
  return sandboxPools(depth).map((pool) => ({
    assetA: ledgerAssetOf(registry, pool.base),
    assetB: ledgerAssetOf(registry, pool.quote),
    amountA: pool.baseAmount,
    amountB: pool.quoteAmount,
  }));
}

/** The reference pools between `registry`'s assets as the ledger has them now, reserves by asset code. */
export async function sandboxPoolsStatus(registry: Asset[]): Promise<SandboxPoolStatus[]> {
  const codeOf = (canonical: string) =>
    canonical === 'native'
      ? 'XLM'
      : (registry.find((a) => `${a.assetCode}:${a.assetIssuer}` === canonical)?.assetCode ?? canonical);
  return Promise.all(
    SANDBOX_POOL_RATES.map(async ({ base, quote }) => {
      const [a, b] = [ledgerAssetOf(registry, base), ledgerAssetOf(registry, quote)];
      const found = await poolReserves('sandbox', a, b);
      return {
        pair: `${base}/${quote}`,
        id: poolIdOf(a, b),
        reserves: found ? Object.fromEntries(found.reserves.map((r) => [codeOf(r.asset), r.amount])) : null,
      };
    }),
  );
}

/** The reference pools between `registry`'s assets that hold nothing on the sandbox ledger. */
export async function emptySandboxPools(registry: Asset[]): Promise<PoolDeposit[]> {
  const empty: PoolDeposit[] = [];
  for (const deposit of poolDeposits(registry, DEPLOYED_POOL_DEPTH)) {
    if (isEmpty(await poolReserves('sandbox', deposit.assetA, deposit.assetB))) empty.push(deposit);
  }
  return empty;
}

/**
 * The `liquidity` account's reserve with everything it holds: 1 XLM for the account, 0.5 per credit
 * trustline (two) and 1 per pool-share trustline (three).
 */
const PROVIDER_RESERVE_XLM = '4.5';

/** The XLM filling `empty` takes from the funding account (at most: a provider already open needs less). */
export function liquidityLumens(empty: PoolDeposit[]): BigNumber {
  if (empty.length === 0) return new BigNumber(0);
  return empty.reduce(
    (sum, { assetA, assetB, amountA, amountB }) =>
      sum.plus(assetA === 'native' ? amountA : 0).plus(assetB === 'native' ? amountB : 0),
    new BigNumber(PROVIDER_RESERVE_XLM),
  );
}

/** A filling that failed is followed by the next generation (the funding account topped up, say). */
async function currentIntent(digest: string): Promise<string> {
  for (let generation = 1; ; generation++) {
    const intentId = `sandbox-liquidity:${digest}:${generation}`;
    if ((await findSubmission('sandbox', intentId))?.status !== 'failed') return intentId;
  }
}

/**
 * Fills `empty` (emptySandboxPools) at the reference rates; a pool that holds liquidity (anyone's) is left
 * as it is, so running it again submits nothing. The issuers must be on the ledger (`admin ledger
 * sandbox-assets`).
 */
export async function openSandboxLiquidity(
  registry: Asset[],
  empty: PoolDeposit[],
): Promise<SandboxLiquidityReport> {
  for (const asset of registry) {
    if (asset.assetIssuer !== null && !(await findLedgerAccount('sandbox', asset.assetIssuer))) {
      throw new OpeningNotSettled(
        `The ${asset.assetCode} issuer ${asset.assetIssuer} is not on the sandbox ledger: run 'admin ledger sandbox-assets' first.`,
      );
    }
  }
  const provider = await ensurePlatformAccount('sandbox', 'liquidity');
  let openedBy: string | null = null;
  if (empty.length > 0) {
    const issuers = await Promise.all(
      registry.flatMap((asset) =>
        asset.assetIssuer === null ? [] : [ensurePlatformAccount('sandbox', `issuer:${asset.assetCode}`)],
      ),
    );
    const digest = createHash('sha256').update(JSON.stringify(empty)).digest('hex').slice(0, 32);
    const outcome = await fillEmptyPools({
      environment: 'sandbox',
      intentId: await currentIntent(digest),
      provider,
      issuers,
      deposits: empty,
      budgetMs: OPENING_BUDGET_MS,
    });
    openedBy = settledHash(outcome, 'sandbox pools', 'fill');
  }
  const pools = await sandboxPoolsStatus(registry);
  const filled = pools.filter((pool) => empty.some((d) => poolIdOf(d.assetA, d.assetB) === pool.id));
  const summary =
    filled.length === 0
      ? 'Every sandbox pool already holds liquidity: nothing was submitted.'
      : `Filled ${filled.map((pool) => pool.pair).join(', ')} at the reference rates.`;
  return { provider: provider.publicKey, pools, openedBy, summary };
}
