// Sandbox funding with an Idempotency-Key, through the gateway: the key names one funding in the
// caller's tenant, so sending it again answers the first result and never pays twice; every test counts
// the payments the stack's sandbox ledger holds for the wallet.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, it } from 'vitest';
import { type ApiResponse, as, assertFieldError, type Caller, horizon, newCaller } from '../support/api.ts';

describe('POST /v1/sandbox/wallets/{walletId}/fund with an Idempotency-Key', () => {
  let alice: Caller;
  let bob: Caller;
  let usdcIssuer: string;

  beforeAll(async () => {
    [alice, bob] = await Promise.all([newCaller(), newCaller()]);
    usdcIssuer = (await as(alice, '/assets/USDC')).body.assetIssuer;
  });

  /** A new USDC wallet of `caller`: its id and ledger account. */
  const newWallet = async (caller: Caller) => {
    const created = await as(caller, '/wallets', {
      method: 'POST',
      body: { walletName: 'Funded', assetCode: 'USDC', ownAccount: true },
    });
    assert.equal(created.status, 201);
    return { id: created.body.id as string, publicKey: created.body.publicKey as string };
  };

  const fund = (
    caller: Caller,
    walletId: string,
    body: { assetCode: string; amount: number },
    key?: string,
  ): Promise<ApiResponse> =>
    as(caller, `/sandbox/wallets/${walletId}/fund`, {
      method: 'POST',
      body,
      ...(key === undefined ? {} : { headers: { 'Idempotency-Key': key } }),
    });

  /** The USDC payments the issuer made to `account`, as the ledger has them. */
  const paymentsTo = async (account: string) => {
    const page = await horizon(`/accounts/${account}/payments?limit=200`);
    return (page._embedded?.records ?? []).filter(
      (p: { type: string; from: string; asset_code?: string }) =>
        p.type === 'payment' && p.from === usdcIssuer && p.asset_code === 'USDC',
    ) as { transaction_hash: string; amount: string }[];
  };

  const usdcBalance = async (caller: Caller, walletId: string) =>
    (await as(caller, `/wallets/${walletId}`)).body.balances.find(
      (b: { assetCode: string }) => b.assetCode === 'USDC',
    )?.balance;

  it('pays once per key: the same request again answers the same body, and the ledger holds one payment', async () => {
    const wallet = await newWallet(alice);
    const key = randomUUID();
    const first = await fund(alice, wallet.id, { assetCode: 'USDC', amount: 10 }, key);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(Object.keys(first.body).sort(), [
      'amount',
      'assetCode',
      'status',
      'stellarTxHash',
      'walletId',
    ]);
    assert.equal(first.body.status, 'succeeded');
    // The same request, the asset code in another case: the same funding.
    const again = await fund(alice, wallet.id, { assetCode: 'USDC', amount: 10 }, key);
    const lowerCase = await fund(alice, wallet.id, { assetCode: 'usdc', amount: 10 }, key);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, first.body);
    assert.deepEqual(lowerCase.body, first.body);

    const payments = await paymentsTo(wallet.publicKey);
    assert.deepEqual(
      payments.map((p) => [p.transaction_hash, p.amount]),
      [[first.body.stellarTxHash, '10.0000000']],
    );
    assert.equal(await usdcBalance(alice, wallet.id), '10.0000000');
  });

  it('answers two requests with the same key at once with one payment and the same body', async () => {
    const wallet = await newWallet(alice);
    // Opened first, so that both requests reach the ledger code together.
    assert.equal((await fund(alice, wallet.id, { assetCode: 'XLM', amount: 1 })).status, 200);
    const key = randomUUID();
    const [one, two] = await Promise.all([
      fund(alice, wallet.id, { assetCode: 'USDC', amount: 3 }, key),
      fund(alice, wallet.id, { assetCode: 'USDC', amount: 3 }, key),
    ]);
    assert.equal(one.status, 200, JSON.stringify(one.body));
    assert.equal(two.status, 200, JSON.stringify(two.body));
    assert.deepEqual(two.body, one.body);
    assert.equal((await paymentsTo(wallet.publicKey)).length, 1);
    assert.equal(await usdcBalance(alice, wallet.id), '3.0000000');
  });

  it('refuses the same key with another request: 409 naming Idempotency-Key, and nothing more is paid', async () => {
    const wallet = await newWallet(alice);
    const other = await newWallet(alice);
    const key = randomUUID();
    const first = await fund(alice, wallet.id, { assetCode: 'USDC', amount: 10 }, key);
    assert.equal(first.status, 200, JSON.stringify(first.body));

    for (const [walletId, body] of [
      [wallet.id, { assetCode: 'USDC', amount: 11 }],
      [wallet.id, { assetCode: 'XLM', amount: 10 }],
      [other.id, { assetCode: 'USDC', amount: 10 }],
    ] as const) {
      const conflict = await fund(alice, walletId, body, key);
      assertFieldError(conflict, 409, 'Idempotency-Key', /another request/);
      assert.match(conflict.body.type, /\/conflict$/);
    }
    // The first request still answers as it did.
    assert.deepEqual((await fund(alice, wallet.id, { assetCode: 'USDC', amount: 10 }, key)).body, first.body);
    assert.equal((await paymentsTo(wallet.publicKey)).length, 1);
    assert.equal((await paymentsTo(other.publicKey)).length, 0);
    assert.equal(await usdcBalance(alice, wallet.id), '10.0000000');
  });

  it('scopes keys to the tenant: the same key in two tenants is two fundings', async () => {
    const [mine, theirs] = await Promise.all([newWallet(alice), newWallet(bob)]);
    const key = `shared-${randomUUID()}`;
    const [a, b] = await Promise.all([
      fund(alice, mine.id, { assetCode: 'USDC', amount: 5 }, key),
      fund(bob, theirs.id, { assetCode: 'USDC', amount: 5 }, key),
    ]);
    assert.equal(a.status, 200, JSON.stringify(a.body));
    assert.equal(b.status, 200, JSON.stringify(b.body));
    assert.notEqual(a.body.stellarTxHash, b.body.stellarTxHash);
    assert.equal((await paymentsTo(mine.publicKey)).length, 1);
    assert.equal((await paymentsTo(theirs.publicKey)).length, 1);
    assert.equal(await usdcBalance(bob, theirs.id), '5.0000000');
  });

  it('funds again for every request without a key, as Stripe does', async () => {
    const wallet = await newWallet(alice);
    const [one, two] = [
      await fund(alice, wallet.id, { assetCode: 'USDC', amount: 2 }),
      await fund(alice, wallet.id, { assetCode: 'USDC', amount: 2 }),
    ];
    assert.equal(one.status, 200);
    assert.equal(two.status, 200);
    assert.notEqual(one.body.stellarTxHash, two.body.stellarTxHash);
    assert.equal((await paymentsTo(wallet.publicKey)).length, 2);
  });

  it('refuses a malformed key with 400 naming Idempotency-Key, before anything is paid', async () => {
    const wallet = await newWallet(alice);
    for (const key of ['', 'k'.repeat(256), 'tab\there', 'caf\u00e9']) {
      assertFieldError(
        await fund(alice, wallet.id, { assetCode: 'USDC', amount: 1 }, key),
        400,
        'Idempotency-Key',
        /printable ASCII/,
      );
    }
    assert.equal((await paymentsTo(wallet.publicKey)).length, 0);
    // The longest key, spaces and all, is a key.
    const longest = `k${' ~'.repeat(127)}`;
    assert.equal(longest.length, 255);
    const funded = await fund(alice, wallet.id, { assetCode: 'USDC', amount: 1 }, longest);
    assert.equal(funded.status, 200, JSON.stringify(funded.body));
    assert.equal((await paymentsTo(wallet.publicKey)).length, 1);
  });

  it('caps one call at 10,000 and an association at its daily cap (20,000 on the test stack): 422s naming amount, nothing paid, a keyed retry counted once', async () => {
    const carol = await newCaller();
    const wallet = await newWallet(carol);
    const above = await fund(carol, wallet.id, { assetCode: 'USDC', amount: 10_000.0000001 });
    assertFieldError(above, 422, 'amount', /10000\.0000001 is above the cap of 10000 a call/);
    assert.match(above.body.detail, /at most 10000/);
    // The drain: one call of 99,999,990.
    assertFieldError(await fund(carol, wallet.id, { assetCode: 'XLM', amount: 99_999_990 }), 422, 'amount');
    assert.equal((await paymentsTo(wallet.publicKey)).length, 0);

    const key = randomUUID();
    for (const attempt of [key, key, undefined]) {
      const funded = await fund(carol, wallet.id, { assetCode: 'USDC', amount: 10_000 }, attempt);
      assert.equal(funded.status, 200, JSON.stringify(funded.body));
    }
    assert.equal((await paymentsTo(wallet.publicKey)).length, 2);
    const past = await fund(carol, wallet.id, { assetCode: 'USDC', amount: 1 });
    assertFieldError(past, 422, 'amount', /daily cap of 20000/);
    assert.match(past.body.detail, /1 USDC would take this association past its sandbox cap of 20000 a day/);
    assert.equal((await paymentsTo(wallet.publicKey)).length, 2);
    // Another association's day is its own.
    const dave = await newCaller();
    assert.equal(
      (await fund(dave, (await newWallet(dave)).id, { assetCode: 'USDC', amount: 1 })).status,
      200,
    );
  });
});
