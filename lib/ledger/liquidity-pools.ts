// Constant-product liquidity pools, which the ledger's strict-send path finding trades through (swaps,
// lib/ledger/payments.ts): reading a pair's pool, and filling empty ones from a platform account. Swaps
// between the sandbox's own assets find a path only once a pool holds both (admin sandbox-liquidity).
import {
  Asset,
  getLiquidityPoolId,
  LiquidityPoolAsset,
  LiquidityPoolFeeV18,
  Operation,
} from '@stellar/stellar-sdk';
import BigNumber from 'bignumber.js';
import type { Environment } from '../tenant.ts';
import { LEDGER_DECIMALS, ledgerAmount } from './amounts.ts';
import { minimumBalance } from './balances.ts';
import { fundedEnvelope, onChannel } from './envelopes.ts';
import { horizonGet } from './horizon-json.ts';
import { findLedgerAccount, type LedgerAccount } from './load-account.ts';
import type { CustodialAccount, LedgerAssetRef, SubmitTuning } from './operations.ts';
import { holdsTrustline, toAsset } from './operations.ts';
import { platformAccount } from './platform-accounts.ts';
import { type BuildContext, type SubmissionOutcome, submitOnce } from './submit.ts';

/** A deposit's price bounds around its own ratio: a pool another depositor opened since at another price is refused (op_bad_price). */
const PRICE_TOLERANCE = '0.01';

/** One pool's pair and what to put in it, in any order (the ledger's order is taken here). */
export interface PoolDeposit {
  assetA: LedgerAssetRef | 'native';
  assetB: LedgerAssetRef | 'native';
  /** Decimal strings, at most 7 places. */
  amountA: string;
  amountB: string;
}

export interface PoolReserves {
  /** Hex, as Horizon names pools. */
  id: string;
  /** Horizon's `native` or `CODE:ISSUER` of each asset, in the pool's order, with its reserve. */
  reserves: { asset: string; amount: string }[];
  totalShares: string;
}

interface HorizonPool {
  id: string;
  total_shares: string;
  reserves: { asset: string; amount: string }[];
}

/** The deposit with its assets in the ledger's order (as a pool names them). */
function ordered(deposit: PoolDeposit): { a: Asset; b: Asset; amountA: string; amountB: string } {
  const a = toAsset(deposit.assetA);
  const b = toAsset(deposit.assetB);
  const amountA = ledgerAmount(deposit.amountA);
  const amountB = ledgerAmount(deposit.amountB);
  return Asset.compare(a, b) < 0
    ? { a, b, amountA, amountB }
    : { a: b, b: a, amountA: amountB, amountB: amountA };
}

/** The id of the pool of `a` and `b`, in the ledger's order. */
const idOf = (a: Asset, b: Asset): string =>
  Buffer.from(
    getLiquidityPoolId('constant_product', { assetA: a, assetB: b, fee: LiquidityPoolFeeV18 }),
  ).toString('hex');

export function poolIdOf(assetA: LedgerAssetRef | 'native', assetB: LedgerAssetRef | 'native'): string {
  const { a, b } = ordered({ assetA, assetB, amountA: '1', amountB: '1' });
  return idOf(a, b);
}

/** The pair's pool as the ledger has it now, or null when there is none. */
export async function poolReserves(
  environment: Environment,
  assetA: LedgerAssetRef | 'native',
  assetB: LedgerAssetRef | 'native',
): Promise<PoolReserves | null> {
  const id = poolIdOf(assetA, assetB);
  const pool = await horizonGet<HorizonPool>(
    environment,
    ['liquidity_pools', id],
    {},
    'The ledger could not be read (liquidity pool)',
  );
  return pool ? { id, reserves: pool.reserves, totalShares: pool.total_shares } : null;
}

/** A pool that holds nothing trades nothing: absent, or emptied. */
export const isEmpty = (pool: PoolReserves | null): boolean =>
  !pool || pool.reserves.some((reserve) => new BigNumber(reserve.amount).isZero());

const holdsShares = (account: LedgerAccount, id: string) =>
  account.balances.some(
    (line) => line.asset_type === 'liquidity_pool_shares' && line.liquidity_pool_id === id,
  );

/** Each in the pair the provider lacks a trustline for (it issues neither): a ChangeTrust, one subentry. */
function lackedTrustlines(account: LedgerAccount | null, provider: string, assets: Asset[]): Asset[] {
  const lacked = new Map<string, Asset>();
  for (const asset of assets) {
    if (asset.isNative() || asset.getIssuer() === provider) continue;
    if (account && holdsTrustline(account, asset)) continue;
    lacked.set(`${asset.getCode()}:${asset.getIssuer()}`, asset);
  }
  return [...lacked.values()];
}

/**
 * Fills each of `deposits` whose pool is empty, in ONE transaction, so every pool opens or none does:
 * the provider (a platform account, opened here by funding if it is not on the ledger) trusts the credit
 * assets and each pool's shares; each credit asset is paid to it by its issuer (one of `issuers`); XLM by
 * funding, with the reserves the new subentries need; then it deposits at the deposit's own ratio. On a
 * channel, fee-bumped by funding. Succeeded without submitting when no pool is empty.
 */
export async function fillEmptyPools(
  input: {
    environment: Environment;
    intentId: string;
    provider: CustodialAccount;
    issuers: CustodialAccount[];
    deposits: PoolDeposit[];
  } & SubmitTuning,
): Promise<SubmissionOutcome> {
  const { environment, intentId, provider, issuers, deposits, ...tuning } = input;
  const funding = await platformAccount(environment, 'funding');
  const issuerOf = (asset: Asset) => {
    const issuer = issuers.find((account) => account.publicKey === asset.getIssuer());
    if (!issuer) throw new Error(`No issuer keys for ${asset.getCode()}`);
    return issuer;
  };

  const build = async (ctx: BuildContext) => {
    const empty: ReturnType<typeof ordered>[] = [];
    for (const deposit of deposits) {
      if (isEmpty(await poolReserves(environment, deposit.assetA, deposit.assetB)))
        empty.push(ordered(deposit));
    }
    if (empty.length === 0) return null;
    const account = await findLedgerAccount(environment, provider.publicKey);
    const trustlines = lackedTrustlines(
      account,
      provider.publicKey,
      empty.flatMap(({ a, b }) => [a, b]),
    );
    const shareLines = empty.filter(({ a, b }) => !account || !holdsShares(account, idOf(a, b)));
    const lumens = empty.reduce(
      (sum, { a, b, amountA, amountB }) =>
        sum.plus(a.isNative() ? amountA : 0).plus(b.isNative() ? amountB : 0),
      new BigNumber(0),
    );
    // A pool-share trustline is two subentries, as on the network.
    const added = trustlines.length + 2 * shareLines.length;
    const native = account?.balances.find((line) => line.asset_type === 'native')?.balance ?? '0';
    const needed = minimumBalance(account ?? { subentry_count: 0 }, added)
      .plus(lumens)
      .minus(native)
      .decimalPlaces(LEDGER_DECIMALS, BigNumber.ROUND_UP);

    const builder = onChannel(ctx);
    if (!account) {
      builder.addOperation(
        Operation.createAccount({
          source: funding.publicKey,
          destination: provider.publicKey,
          startingBalance: needed.toFixed(),
        }),
      );
    } else if (needed.gt(0)) {
      builder.addOperation(
        Operation.payment({
          source: funding.publicKey,
          destination: provider.publicKey,
          asset: Asset.native(),
          amount: needed.toFixed(),
        }),
      );
    }
    for (const asset of trustlines)
      builder.addOperation(Operation.changeTrust({ asset, source: provider.publicKey }));
    const paying = new Map<string, CustodialAccount>();
    for (const { a, b, amountA, amountB } of empty) {
      for (const [asset, amount] of [
        [a, amountA],
        [b, amountB],
      ] as const) {
        if (asset.isNative() || asset.getIssuer() === provider.publicKey) continue;
        const issuer = issuerOf(asset);
        paying.set(issuer.publicKey, issuer);
        builder.addOperation(
          Operation.payment({ source: issuer.publicKey, destination: provider.publicKey, asset, amount }),
        );
      }
    }
    for (const { a, b } of shareLines) {
      builder.addOperation(
        Operation.changeTrust({
          asset: new LiquidityPoolAsset(a, b, LiquidityPoolFeeV18),
          source: provider.publicKey,
        }),
      );
    }
    for (const { a, b, amountA, amountB } of empty) {
      const price = new BigNumber(amountA).div(amountB);
      builder.addOperation(
        Operation.liquidityPoolDeposit({
          source: provider.publicKey,
          liquidityPoolId: idOf(a, b),
          maxAmountA: amountA,
          maxAmountB: amountB,
          minPrice: price.times(new BigNumber(1).minus(PRICE_TOLERANCE)).toFixed(LEDGER_DECIMALS),
          maxPrice: price.times(new BigNumber(1).plus(PRICE_TOLERANCE)).toFixed(LEDGER_DECIMALS),
        }),
      );
    }
    // Only accounts with an operation sign: an extra signature is tx_bad_auth_extra.
    const acting = [...(!account || needed.gt(0) ? [funding] : []), provider, ...paying.values()];
    return fundedEnvelope(builder, ctx, acting, funding);
  };

  return submitOnce({ environment, intentId, build, channel: true, ...tuning });
}
