// Constant-product liquidity pools (fee 30 bps) and the two things built on them: converting an amount along
// a path (PathPaymentStrictSend) and finding strict-send paths (GET /paths/strict-send).
import { getLiquidityPoolId } from '@stellar/stellar-sdk';
import { INT64_MAX } from './amounts.ts';
import { assetKey, comparePair, sameAsset, toSdkAsset } from './assets.ts';
import type { Pool } from './state.ts';
import type { LedgerAsset } from './types.ts';

export const POOL_FEE_BPS = 30n;
const MAX_BPS = 10_000n;

/** The pool id the network derives for a pair (assets in pool order). */
export function poolIdOf(assetA: LedgerAsset, assetB: LedgerAsset): string {
  const id = getLiquidityPoolId('constant_product', {
    assetA: toSdkAsset(assetA),
    assetB: toSdkAsset(assetB),
    fee: Number(POOL_FEE_BPS),
  });
  return Buffer.from(id).toString('hex');
}

export function poolFor(pools: Map<string, Pool>, a: LedgerAsset, b: LedgerAsset): Pool | undefined {
  if (sameAsset(a, b)) return undefined;
  return comparePair(a, b) < 0 ? pools.get(poolIdOf(a, b)) : pools.get(poolIdOf(b, a));
}

/**
 * What the pool pays out for `amountIn` of `assetIn`, by stellar-core's strict-send rule:
 * out = floor((1 - fee) · reserveOut · in / (reserveIn + (1 - fee) · in)). Null when the pool cannot trade it.
 */
export function quoteStrictSend(pool: Pool, assetIn: LedgerAsset, amountIn: bigint): bigint | null {
  const inIsA = sameAsset(pool.assetA, assetIn);
  const reserveIn = inIsA ? pool.reserveA : pool.reserveB;
  const reserveOut = inIsA ? pool.reserveB : pool.reserveA;
  if (amountIn <= 0n || reserveIn + amountIn > INT64_MAX) return null;
  const out =
    ((MAX_BPS - POOL_FEE_BPS) * reserveOut * amountIn) /
    (MAX_BPS * reserveIn + (MAX_BPS - POOL_FEE_BPS) * amountIn);
  return out > 0n && out < reserveOut ? out : null;
}

export interface PoolTrade {
  pool: Pool;
  /** What the pool received (the trader sold) and what it paid out. */
  bought: { asset: LedgerAsset; amount: bigint };
  sold: { asset: LedgerAsset; amount: bigint };
}

/**
 * Trades `amount` of path[0] hop by hop into path[path.length - 1], updating the reserves of the pools in
 * `pools` as it goes (so a pool crossed twice sees its own first trade). Null when a hop has no pool or
 * the pool cannot pay out; the caller then discards `pools`.
 */
export function tradeAlongPath(
  pools: Map<string, Pool>,
  path: LedgerAsset[],
  amount: bigint,
): { amountOut: bigint; trades: PoolTrade[] } | null {
  let current = amount;
  const trades: PoolTrade[] = [];
  for (let i = 1; i < path.length; i += 1) {
    const from = path[i - 1];
    const to = path[i];
    if (from === undefined || to === undefined || sameAsset(from, to)) continue;
    const pool = poolFor(pools, from, to);
    if (!pool) return null;
    const out = quoteStrictSend(pool, from, current);
    if (out === null) return null;
    if (sameAsset(pool.assetA, from)) {
      pool.reserveA += current;
      pool.reserveB -= out;
    } else {
      pool.reserveB += current;
      pool.reserveA -= out;
    }
    trades.push({
      pool: { ...pool },
      bought: { asset: from, amount: current },
      sold: { asset: to, amount: out },
    });
    current = out;
  }
  return { amountOut: current, trades };
}

export interface FoundPath {
  destination: LedgerAsset;
  destinationAmount: bigint;
  /** Intermediate assets only, as in Horizon's `path`. */
  path: LedgerAsset[];
}

function copyPools(pools: Map<string, Pool>): Map<string, Pool> {
  const copy = new Map<string, Pool>();
  for (const [id, pool] of pools) copy.set(id, { ...pool });
  return copy;
}

/** Direct and one-hop (through any asset two pools share) strict-send paths, best first. */
export function findStrictSendPaths(
  pools: Map<string, Pool>,
  source: LedgerAsset,
  amount: bigint,
  destinations: LedgerAsset[],
): FoundPath[] {
  const assets = new Map<string, LedgerAsset>();
  for (const pool of pools.values()) {
    assets.set(assetKey(pool.assetA), pool.assetA);
    assets.set(assetKey(pool.assetB), pool.assetB);
  }
  const found: FoundPath[] = [];
  const seen = new Set<string>();
  for (const destination of destinations) {
    if (sameAsset(destination, source) || seen.has(assetKey(destination))) continue;
    seen.add(assetKey(destination));
    const candidates: LedgerAsset[][] = [[]];
    for (const middle of assets.values()) {
      if (!sameAsset(middle, source) && !sameAsset(middle, destination)) candidates.push([middle]);
    }
    for (const middle of candidates) {
      const traded = tradeAlongPath(copyPools(pools), [source, ...middle, destination], amount);
      if (traded) found.push({ destination, destinationAmount: traded.amountOut, path: middle });
    }
  }
  return found.sort((x, y) =>
    x.destinationAmount === y.destinationAmount
      ? x.path.length - y.path.length
      : x.destinationAmount > y.destinationAmount
        ? -1
        : 1,
  );
}

/** floor(√n) for a non-negative bigint (Newton's method). */
export function sqrtFloor(n: bigint): bigint {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
}

export interface Deposit {
  amountA: bigint;
  amountB: bigint;
  shares: bigint;
}

/**
 * What a LiquidityPoolDeposit of at most maxA/maxB takes and the shares it mints, by stellar-core's rule:
 * into an empty pool, all of both and √(A·B) shares; into one with shares, the largest whole number of
 * shares both maxima cover, each amount rounded up.
 */
export function depositInto(pool: Pool, maxA: bigint, maxB: bigint): Deposit {
  if (pool.totalShares === 0n) return { amountA: maxA, amountB: maxB, shares: sqrtFloor(maxA * maxB) };
  const sharesA = (pool.totalShares * maxA) / pool.reserveA;
  const sharesB = (pool.totalShares * maxB) / pool.reserveB;
  const shares = sharesA < sharesB ? sharesA : sharesB;
  const roundUp = (reserve: bigint) => (shares * reserve + pool.totalShares - 1n) / pool.totalShares;
  return { amountA: roundUp(pool.reserveA), amountB: roundUp(pool.reserveB), shares };
}

/** Whether amountA/amountB lies within [min, max] (prices as n/d), cross-multiplied as core does. */
export function withinPrice(
  { amountA, amountB }: Pick<Deposit, 'amountA' | 'amountB'>,
  min: { n: bigint; d: bigint },
  max: { n: bigint; d: bigint },
): boolean {
  return amountA * min.d >= amountB * min.n && amountA * max.d <= amountB * max.n;
}
