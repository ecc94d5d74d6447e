// The local ledger's pure arithmetic: stroop amounts, the constant-product pool price and Horizon's cursor paging.
import assert from 'node:assert/strict';
import { Keypair } from '@stellar/stellar-sdk';
import { describe, it } from 'vitest';
import { formatAmount, toStroops } from '../../local/ledger/amounts.ts';
import { parsePageQuery, selectPage } from '../../local/ledger/history.ts';
import {
  depositInto,
  findStrictSendPaths,
  poolIdOf,
  quoteStrictSend,
  sqrtFloor,
  tradeAlongPath,
  withinPrice,
} from '../../local/ledger/pools.ts';
import type { Pool } from '../../local/ledger/state.ts';

describe('local ledger amounts', () => {
  it('parses decimals to stroops exactly and prints seven places', () => {
    assert.equal(toStroops('100'), 1_000_000_000n);
    assert.equal(toStroops('0.0000001'), 1n);
    assert.equal(toStroops('922337203685.4775807'), 2n ** 63n - 1n);
    assert.equal(formatAmount(125_000_000n), '12.5000000');
    assert.equal(formatAmount(-1n), '-0.0000001');
    for (const bad of ['1.00000001', '-1', '1e3', '', '922337203685.4775808']) {
      assert.throws(() => toStroops(bad), RangeError, bad);
    }
  });
});

describe('local ledger pools', () => {
  const usd = { code: 'USD', issuer: Keypair.random().publicKey() };
  const eur = { code: 'EUR', issuer: usd.issuer };
  const pool = (a: Pool['assetA'], b: Pool['assetB'], reserveA: bigint, reserveB: bigint): Pool => ({
    id: poolIdOf(a, b),
    assetA: a,
    assetB: b,
    reserveA,
    reserveB,
    totalShares: sqrtFloor(reserveA * reserveB),
    trustlines: 0,
  });

  it('prices strict sends like stellar-core: floor(0.997 · out · in / (in_reserve + 0.997 · in))', () => {
    const xlmUsd = pool('native', usd, 1000_0000000n, 500_0000000n);
    // 9970 · 500e7 · 10e7 / (10000 · 1000e7 + 9970 · 10e7) = 4.93579017e7, rounded down.
    assert.equal(quoteStrictSend(xlmUsd, 'native', 10_0000000n), 4_9357901n);
    assert.equal(quoteStrictSend(xlmUsd, usd, 1n), 1n);
    assert.equal(quoteStrictSend(xlmUsd, 'native', 1n), null, 'rounds down to nothing');
    assert.equal(quoteStrictSend(xlmUsd, 'native', 0n), null);
  });

  it('trades hop by hop, moving reserves, and finds direct and one-hop paths best first', () => {
    const pools = new Map<string, Pool>();
    for (const p of [
      pool('native', usd, 1000_0000000n, 500_0000000n),
      pool(eur, usd, 400_0000000n, 500_0000000n),
    ]) {
      pools.set(p.id, p);
    }
    const found = findStrictSendPaths(pools, 'native', 10_0000000n, [eur, usd, 'native']);
    assert.deepEqual(
      found.map((f) => [f.destination === 'native' ? 'native' : f.destination.code, f.path.length]),
      [
        ['USD', 0],
        ['EUR', 1],
      ],
    );
    const before = [...pools.values()].map((p) => [p.reserveA, p.reserveB]);
    const traded = tradeAlongPath(pools, ['native', usd, eur], 10_0000000n);
    assert.ok(traded);
    assert.equal(traded.amountOut, found[1]?.destinationAmount);
    assert.equal(traded.trades.length, 2);
    assert.notDeepEqual(
      [...pools.values()].map((p) => [p.reserveA, p.reserveB]),
      before,
    );
    assert.equal(tradeAlongPath(pools, ['native', eur], 1_0000000n), null, 'no XLM/EUR pool');
  });

  it('deposits like stellar-core: all of both and √(A·B) shares into an empty pool, proportionally after', () => {
    assert.deepEqual([0n, 1n, 3n, 4n, 99n, 10n ** 18n].map(sqrtFloor), [0n, 1n, 1n, 2n, 9n, 10n ** 9n]);
    const empty = { ...pool(eur, usd, 0n, 0n), totalShares: 0n };
    const first = depositInto(empty, 100_0000000n, 108_0000000n);
    assert.deepEqual(first, {
      amountA: 100_0000000n,
      amountB: 108_0000000n,
      shares: sqrtFloor(100_0000000n * 108_0000000n),
    });
    const held = { ...empty, reserveA: first.amountA, reserveB: first.amountB, totalShares: first.shares };
    // Twice as much B as the price needs: the A side bounds the shares, B is taken at the pool's price.
    const second = depositInto(held, 10_0000000n, 30_0000000n);
    assert.equal(second.amountA, 10_0000000n);
    assert.equal(second.amountB, 10_8000000n);
    assert.equal(second.shares, first.shares / 10n);
    assert.equal(withinPrice(first, { n: 99n, d: 108n }, { n: 101n, d: 108n }), true);
    assert.equal(withinPrice(first, { n: 1n, d: 1n }, { n: 2n, d: 1n }), false);
  });
});

describe('local ledger paging', () => {
  const records = [1n, 2n, 3n, 4n, 5n];
  const page = (query: string) => {
    const parsed = parsePageQuery(new URLSearchParams(query));
    assert.ok(!('invalid' in parsed));
    return selectPage(records, (r) => [r, 0], parsed);
  };

  it('pages strictly after the cursor in either order', () => {
    assert.deepEqual(page('limit=2'), [1n, 2n]);
    assert.deepEqual(page('limit=2&cursor=2'), [3n, 4n]);
    assert.deepEqual(page('order=desc&limit=2'), [5n, 4n]);
    assert.deepEqual(page('order=desc&cursor=4'), [3n, 2n, 1n]);
    assert.deepEqual(page('cursor=now'), []);
  });

  it('refuses limits outside 1..200 and unknown orders', () => {
    for (const query of ['limit=0', 'limit=201', 'limit=x', 'order=up', 'cursor=abc']) {
      assert.ok('invalid' in parsePageQuery(new URLSearchParams(query)), query);
    }
  });
});
