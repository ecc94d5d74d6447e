// Opening liquidity on the local ledger as on the network (what `admin ledger sandbox-liquidity` does on a
// deployed sandbox): a pool-share trustline (ChangeTrust of a LiquidityPoolAsset) opens the pool, a
// LiquidityPoolDeposit fills it at the depositor's price, and strict-send paths then trade through it.
// stellar-core's result codes for each refusal, through the SDK over HTTP.
import assert from 'node:assert/strict';
import {
  Asset,
  getLiquidityPoolId,
  Keypair,
  LiquidityPoolAsset,
  Operation,
  type xdr,
} from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { sqrtFloor } from '../../local/ledger/pools.ts';
import { failure, type Json, startTestLedger, stroops, type TestLedger } from '../support/local-ledger.ts';

const bank = Keypair.random();
const issuer = Keypair.random();
const EUR = new Asset('EURC', issuer.publicKey());
const USD = new Asset('USDC', issuer.publicKey());
// The network's order of the pair: EURC before USDC (same type and issuer: by code).
const shares = new LiquidityPoolAsset(EUR, USD, 30);
const poolId = Buffer.from(
  getLiquidityPoolId('constant_product', shares.getLiquidityPoolParameters()),
).toString('hex');

let ledger: TestLedger;

beforeAll(async () => {
  ledger = await startTestLedger({
    genesis: {
      accounts: [
        { publicKey: bank.publicKey(), nativeBalance: '1000000' },
        { publicKey: issuer.publicKey(), nativeBalance: '1000' },
      ],
    },
  });
});

afterAll(async () => {
  await ledger?.stop();
});

async function depositor(): Promise<Keypair> {
  const keys = Keypair.random();
  await ledger.submit(
    await ledger.build(bank, [
      Operation.createAccount({ destination: keys.publicKey(), startingBalance: '10' }),
    ]),
  );
  return keys;
}

/** A deposit's price is A per B: EURC per USDC, about 1 / 1.08. */
const deposit = (maxAmountA: string, maxAmountB: string, minPrice = '0.92', maxPrice = '0.93') =>
  Operation.liquidityPoolDeposit({ liquidityPoolId: poolId, maxAmountA, maxAmountB, minPrice, maxPrice });

/** Trustlines for both assets, the issuer's test money and the pool-share trustline, then `more`. */
async function holding(account: Keypair, eur: string, usd: string, more: xdr.Operation[] = []) {
  const minted = (asset: Asset, amount: string) =>
    Operation.payment({ source: issuer.publicKey(), destination: account.publicKey(), asset, amount });
  const operations = [
    Operation.changeTrust({ asset: EUR }),
    Operation.changeTrust({ asset: USD }),
    minted(EUR, eur),
    minted(USD, usd),
    Operation.changeTrust({ asset: shares }),
    ...more,
  ];
  await ledger.submit(await ledger.build(account, operations, { signers: [account, issuer] }));
}

const codes = async (source: Keypair, operations: xdr.Operation[], signers = [source]) =>
  (await failure(ledger.submit(await ledger.build(source, operations, { signers })))).codes?.operations;

describe('local ledger: liquidity pool deposits', () => {
  it('opens a pool with a pool-share trustline, fills it at the depositor’s price, then trades through it', async () => {
    const alice = await depositor();
    // No path before: nothing is priced between the two.
    assert.equal((await ledger.server.strictSendPaths(EUR, '10', [USD]).call()).records.length, 0);
    // A pool-share trustline needs a trustline for each credit asset of the pair first.
    assert.deepEqual(await codes(alice, [Operation.changeTrust({ asset: shares })]), [
      'op_trust_line_missing',
    ]);
    // Not trusting the pool's shares, a deposit has nowhere to put them.
    assert.deepEqual(await codes(alice, [deposit('1', '1')]), ['op_no_trust']);

    await holding(alice, '1000', '1080');
    const opened: Json = (await ledger.http(`/liquidity_pools/${poolId}`)).body;
    assert.equal(opened.total_trustlines, '1');
    assert.deepEqual(
      opened.reserves.map((r: Json) => r.amount),
      ['0.0000000', '0.0000000'],
    );
    // Two trustlines and the pool share's two subentries.
    assert.equal((await ledger.server.loadAccount(alice.publicKey())).subentry_count, 4);

    // More than she holds, a price outside the bounds: refused, nothing moves.
    assert.deepEqual(await codes(alice, [deposit('1001', '1080')]), ['op_underfunded']);
    assert.deepEqual(await codes(alice, [deposit('1000', '1000')]), ['op_bad_price']);

    await ledger.submit(await ledger.build(alice, [deposit('1000', '1080')]));
    const pool: Json = (await ledger.http(`/liquidity_pools/${poolId}`)).body;
    assert.deepEqual(pool.reserves, [
      { asset: `EURC:${issuer.publicKey()}`, amount: '1000.0000000' },
      { asset: `USDC:${issuer.publicKey()}`, amount: '1080.0000000' },
    ]);
    const minted = sqrtFloor(1000_0000000n * 1080_0000000n);
    assert.equal(stroops(pool.total_shares), minted);
    const account = await ledger.server.loadAccount(alice.publicKey());
    const line = account.balances.find((b) => b.asset_type === 'liquidity_pool_shares') as Json;
    assert.deepEqual([line.liquidity_pool_id, stroops(line.balance)], [poolId, minted]);
    for (const asset of [EUR, USD]) {
      const held = account.balances.find((b) => 'asset_code' in b && b.asset_code === asset.getCode());
      assert.equal(held?.balance, '0.0000000', asset.getCode());
    }

    // A second depositor gets shares in proportion, taken at the pool's price.
    const bob = await depositor();
    await holding(bob, '10', '20', [deposit('10', '20', '0.5', '2')]);
    const after: Json = (await ledger.http(`/liquidity_pools/${poolId}`)).body;
    assert.deepEqual(
      after.reserves.map((r: Json) => r.amount),
      ['1010.0000000', '1090.8000000'],
    );
    assert.equal(after.total_trustlines, '2');

    // The pool now prices EURC in USDC at about 1.08, less its fee and slippage.
    const [path] = (await ledger.server.strictSendPaths(EUR, '10', [USD]).call()).records;
    assert.ok(path);
    assert.ok(Number(path.destination_amount) > 10.6 && Number(path.destination_amount) < 10.8);
  });

  it('answers an unknown pool with a 404 and refuses a deposit whose least price is above its greatest', async () => {
    assert.equal((await ledger.http(`/liquidity_pools/${'0'.repeat(64)}`)).status, 404);
    const carol = await depositor();
    assert.deepEqual(await codes(carol, [deposit('1', '1', '2', '1')]), ['op_malformed']);
  });
});
