import assert from 'node:assert/strict';
import { beforeAll, describe, it } from 'vitest';
import { type ApiResponse, as, assertFieldError, type Caller, horizon, newCaller } from '../support/api.ts';
import { recordPendingWithoutOutbox, recordWallet } from '../support/wallet-records.ts';

const person = {
  entityType: 'Person',
  firstName: 'Thandi',
  lastName: 'Nkosi',
  dateOfBirth: '1990-04-12',
  idType: 'NATIONAL_ID',
  idNumber: '9004120000000',
  nationality: 'za',
};
const business = {
  entityType: 'Business',
  registeredName: 'Acme Trading Ltd',
  registrationNumber: '2019/123456/07',
  registrationCountry: 'GBR',
};

/** Waits for the activation worker to open the wallet's ledger account. */
async function activated(caller: Caller, walletId: string): Promise<ApiResponse> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await as(caller, `/wallets/${walletId}`);
    if (response.body?.activationStatus !== 'pending' || Date.now() > deadline) return response;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('wallets', () => {
  let alice: Caller;
  let bob: Caller;
  beforeAll(async () => {
    [alice, bob] = await Promise.all([newCaller(), newCaller()]);
  });

  it('creates an own wallet: Verified at once, its account opened on the ledger with a trustline', async () => {
    const created = await as(alice, '/wallets', {
      method: 'POST',
      body: { walletName: 'Treasury', assetCode: 'usdc', ownAccount: true },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const wallet = created.body;
    assert.equal(wallet.status, 'Verified');
    assert.equal(wallet.assetCode, 'USDC');
    assert.equal(wallet.ownAccount, true);
    assert.equal(wallet.networkName, 'stellar-testnet');
    assert.match(wallet.publicKey, /^G[A-Z2-7]{55}$/);
    assert.equal(wallet.accountNumber, wallet.publicKey);
    assert.deepEqual(wallet.balances, []);
    assert.equal(wallet.metadata, null);
    assert.ok(!JSON.stringify(wallet).toLowerCase().includes('secret'));

    const active = await activated(alice, wallet.id);
    assert.equal(active.body.activationStatus, 'active');
    const codes = active.body.balances.map((b: { assetCode: string }) => b.assetCode).sort();
    assert.deepEqual(codes, ['USDC', 'XLM']);
    const usdc = active.body.balances.find((b: { assetCode: string }) => b.assetCode === 'USDC');
    assert.equal(Number(usdc.balance), 0);
    assert.match(usdc.assetIssuer, /^G/);

    const onLedger = await horizon(`/accounts/${wallet.publicKey}`);
    assert.equal(onLedger.id, wallet.publicKey);
  });

  it('creates third-party wallets Pending, normalising countries to alpha-3', async () => {
    const personWallet = await as(alice, '/wallets', {
      method: 'POST',
      body: { walletName: 'Thandi', assetCode: 'USDC', metadata: person },
    });
    assert.equal(personWallet.status, 201, JSON.stringify(personWallet.body));
    assert.equal(personWallet.body.status, 'Pending');
    assert.equal(personWallet.body.ownAccount, false);
    assert.equal(personWallet.body.metadata.nationality, 'ZAF');
    assert.equal(personWallet.body.metadata.firstName, 'Thandi');

    const businessWallet = await as(alice, '/wallets', {
      method: 'POST',
      body: {
        walletName: 'Acme',
        assetCode: 'EURC',
        ownAccount: false,
        metadata: { ...business, registrationCountry: 'gb' },
      },
    });
    assert.equal(businessWallet.status, 201);
    assert.equal(businessWallet.body.metadata.registrationCountry, 'GBR');
  });

  it('refuses malformed wallet requests with 400 naming the field, and writes nothing', async () => {
    const before = (await as(alice, '/wallets?limit=100')).body.data.length;
    const cases: [unknown, string][] = [
      [{ assetCode: 'USDC', ownAccount: true }, 'walletName'],
      [{ walletName: '   ', assetCode: 'USDC', ownAccount: true }, 'walletName'],
      [{ walletName: 'W', ownAccount: true }, 'assetCode'],
      [{ walletName: 'W', assetCode: 'US-DC', ownAccount: true }, 'assetCode'],
      [{ walletName: 'W', assetCode: 'USDC', ownAccount: 'yes' }, 'ownAccount'],
      [{ walletName: 'W', assetCode: 'USDC' }, 'metadata'],
      [
        { walletName: 'W', assetCode: 'USDC', ownAccount: true, networkName: 'stellar-pubnet' },
        'networkName',
      ],
      [{ walletName: 'W', assetCode: 'USDC', ownAccount: true, custody: 'self' }, 'custody'],
      [{ walletName: 'W', assetCode: 'USDC', ownAccount: true, type: 'savings' }, 'type'],
      [
        { walletName: 'W', assetCode: 'USDC', metadata: { ...person, entityType: 'Robot' } },
        'metadata.entityType',
      ],
      [
        { walletName: 'W', assetCode: 'USDC', metadata: { ...person, nationality: 'Z' } },
        'metadata.nationality',
      ],
      [
        { walletName: 'W', assetCode: 'USDC', metadata: { ...person, dateOfBirth: '12/04/1990' } },
        'metadata.dateOfBirth',
      ],
      [{ walletName: 'W', assetCode: 'USDC', metadata: { ...person, shoeSize: 42 } }, 'metadata.shoeSize'],
      [
        { walletName: 'W', assetCode: 'USDC', metadata: { entityType: 'Business' } },
        'metadata.registeredName',
      ],
    ];
    for (const [body, field] of cases)
      assertFieldError(await as(alice, '/wallets', { method: 'POST', body }), 400, field);
    assertFieldError(await as(alice, '/wallets', { method: 'POST', body: '{"walletName":' }), 400, 'body');
    assert.equal((await as(alice, '/wallets?limit=100')).body.data.length, before);
  });

  it('refuses well-formed values that name nothing with 422', async () => {
    assertFieldError(
      await as(alice, '/wallets', {
        method: 'POST',
        body: { walletName: 'W', assetCode: 'DOGE', ownAccount: true },
      }),
      422,
      'assetCode',
    );
    for (const nationality of ['XX', 'ZZZ', 'qq']) {
      const response = await as(alice, '/wallets', {
        method: 'POST',
        body: { walletName: 'W', assetCode: 'USDC', metadata: { ...person, nationality } },
      });
      assertFieldError(response, 422, 'metadata.nationality');
      assert.match(response.body.type, /\/validation-error$/);
    }
    assertFieldError(
      await as(alice, '/wallets', {
        method: 'POST',
        body: { walletName: 'W', assetCode: 'USDC', metadata: { ...business, registrationCountry: 'XYZ' } },
      }),
      422,
      'metadata.registrationCountry',
    );
  });

  it('settles a KYC review once through the sandbox helper', async () => {
    const created = await as(alice, '/wallets', {
      method: 'POST',
      body: { walletName: 'KYC', assetCode: 'USDC', metadata: person },
    });
    const id = created.body.id;
    const verified = await as(alice, `/sandbox/wallets/${id}/kyc`, {
      method: 'POST',
      body: { decision: 'Verified' },
    });
    assert.equal(verified.status, 200);
    assert.equal(verified.body.status, 'Verified');
    assert.equal((await as(alice, `/wallets/${id}`)).body.status, 'Verified');
    const again = await as(alice, `/sandbox/wallets/${id}/kyc`, {
      method: 'POST',
      body: { decision: 'Rejected' },
    });
    assert.equal(again.status, 409);
    assertFieldError(
      await as(alice, `/sandbox/wallets/${id}/kyc`, { method: 'POST', body: { decision: 'Maybe' } }),
      400,
      'decision',
    );

    const other = await as(alice, '/wallets', {
      method: 'POST',
      body: { walletName: 'R', assetCode: 'USDC', metadata: person },
    });
    const rejected = await as(alice, `/sandbox/wallets/${other.body.id}/kyc`, {
      method: 'POST',
      body: { decision: 'Rejected' },
    });
    assert.equal(rejected.body.status, 'Rejected');
  });

  it('funds a wallet on the ledger and reports the balance the ledger holds', async () => {
    const created = await as(alice, '/wallets', {
      method: 'POST',
      body: { walletName: 'Funded', assetCode: 'USDC', ownAccount: true },
    });
    const id = created.body.id;
    // At once, while its account is (most likely) still being opened: the helper waits for it.
    assert.equal(created.body.activationStatus, 'pending');
    const funded = await as(alice, `/sandbox/wallets/${id}/fund`, {
      method: 'POST',
      body: { assetCode: 'USDC', amount: 250.5 },
    });
    assert.equal(funded.status, 200, JSON.stringify(funded.body));
    assert.match(funded.body.stellarTxHash, /^[0-9a-f]{64}$/);
    await as(alice, `/sandbox/wallets/${id}/fund`, {
      method: 'POST',
      body: { assetCode: 'USDC', amount: 0.0000001 },
    });

    const wallet = (await as(alice, `/wallets/${id}`)).body;
    const usdc = wallet.balances.find((b: { assetCode: string }) => b.assetCode === 'USDC');
    assert.equal(usdc.balance, '250.5000001');
    const ledger = await horizon(`/accounts/${wallet.publicKey}`);
    const onLedger = ledger.balances.find((b: { asset_code?: string }) => b.asset_code === 'USDC');
    assert.equal(onLedger.balance, usdc.balance);

    const noTrust = await as(alice, `/sandbox/wallets/${id}/fund`, {
      method: 'POST',
      body: { assetCode: 'EURC', amount: 5 },
    });
    assert.equal(noTrust.status, 422, JSON.stringify(noTrust.body));
    for (const amount of [0, -1, 'ten']) {
      assertFieldError(
        await as(alice, `/sandbox/wallets/${id}/fund`, {
          method: 'POST',
          body: { assetCode: 'USDC', amount },
        }),
        400,
        'amount',
      );
    }
  });

  it('reads a wallet by its id in any case; the removed balances route answers as an unknown route', async () => {
    const created = await as(alice, '/wallets', {
      method: 'POST',
      body: { walletName: 'Any case', assetCode: 'USDC', ownAccount: true },
    });
    const id: string = created.body.id;
    const upper = await as(alice, `/wallets/${id.toUpperCase()}`);
    assert.equal(upper.status, 200, JSON.stringify(upper.body));
    assert.equal(upper.body.id, id);
    // The contract's change entries removed it in favour of the embedded `balances` (§2.1, §4.2).
    const removed = await as(alice, `/wallets/${id}/balances`);
    assert.equal(removed.status, 404);
    assert.match(removed.body.type, /\/not-found$/);
    assert.equal(removed.body.detail, `No route GET /v1/wallets/${id}/balances.`);
  });

  it('answers 409 for funding a wallet whose account failed to open, or is still not open after the wait', async () => {
    const scope = { environment: 'sandbox' as const, associationId: alice.tenant.associationId };
    const fund = (walletId: string) =>
      as(alice, `/sandbox/wallets/${walletId}/fund`, {
        method: 'POST',
        body: { assetCode: 'XLM', amount: 1 },
      });

    // Recorded directly, in states no activation moves: failed, and pending with no activation asked for
    // (an activation that hangs).
    const { walletId: failedId } = await recordWallet(scope, {
      activationStatus: 'failed',
      activationErrorCode: 'op_low_reserve',
      activationFailureReason: 'The funding account cannot cover the reserve.',
    });
    const { walletId: pendingId } = await recordPendingWithoutOutbox(scope);
    const started = Date.now();
    const [failed, pending] = await Promise.all([fund(failedId), fund(pendingId)]);
    assert.equal(failed.status, 409, JSON.stringify(failed.body));
    assert.match(
      failed.body.detail,
      /could not be opened \(The funding account cannot cover the reserve\.\)/,
    );
    assert.equal(pending.status, 409, JSON.stringify(pending.body));
    assert.match(pending.body.detail, /still being opened after 5 s/);
    assert.ok(Date.now() - started >= 5_000, 'the helper waited for the account before answering');
  });

  it('lists wallets with filters and pagination, and only the caller’s own', async () => {
    const mine = await newCaller();
    for (const [walletName, assetCode] of [
      ['A', 'USDC'],
      ['B', 'EURC'],
      ['C', 'USDC'],
    ]) {
      await as(mine, '/wallets', { method: 'POST', body: { walletName, assetCode, ownAccount: true } });
    }
    const all = await as(mine, '/wallets');
    assert.equal(all.status, 200);
    assert.equal(all.body.data.length, 3);
    const usdc = await as(mine, '/wallets?assetCode=usdc');
    assert.deepEqual(usdc.body.data.map((w: { walletName: string }) => w.walletName).sort(), ['A', 'C']);
    assert.equal((await as(mine, '/wallets?networkName=stellar-pubnet')).body.data.length, 0);
    assert.equal((await as(mine, '/wallets?networkName=stellar-testnet')).body.data.length, 3);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ApiResponse = await as(
        mine,
        `/wallets?assetCode=USDC&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      assert.equal(page.status, 200);
      seen.push(...page.body.data.map((w: { walletName: string }) => w.walletName));
      cursor = page.body.pagination.nextCursor;
    } while (cursor);
    assert.deepEqual(seen.sort(), ['A', 'C']);

    const first = await as(mine, '/wallets?limit=1');
    const foreign = await as(
      bob,
      `/wallets?limit=1&cursor=${encodeURIComponent(first.body.pagination.nextCursor)}`,
    );
    assertFieldError(foreign, 400, 'cursor');
    const otherQuery = await as(
      mine,
      `/wallets?limit=1&assetCode=EURC&cursor=${encodeURIComponent(first.body.pagination.nextCursor)}`,
    );
    assertFieldError(otherQuery, 400, 'cursor');
    assertFieldError(await as(mine, '/wallets?limit=0'), 400, 'limit');
    assertFieldError(await as(mine, '/wallets?colour=red'), 400, 'colour');
  });

  it("answers another tenant's wallet exactly like a missing one", async () => {
    const created = await as(alice, '/wallets', {
      method: 'POST',
      body: { walletName: 'Mine', assetCode: 'USDC', ownAccount: true },
    });
    const id = created.body.id;
    const theirs = await as(bob, `/wallets/${id}`);
    const missing = await as(bob, `/wallets/${crypto.randomUUID()}`);
    assert.equal(theirs.status, 404);
    assert.equal(missing.status, 404);
    assert.equal(theirs.body.title, missing.body.title);
    assert.equal(
      (await as(bob, `/sandbox/wallets/${id}/kyc`, { method: 'POST', body: { decision: 'Verified' } }))
        .status,
      404,
    );
    assert.equal(
      (
        await as(bob, `/sandbox/wallets/${id}/fund`, {
          method: 'POST',
          body: { assetCode: 'USDC', amount: 1 },
        })
      ).status,
      404,
    );
    assert.equal(
      (await as(bob, '/wallets')).body.data.some((w: { id: string }) => w.id === id),
      false,
    );
    assertFieldError(await as(bob, '/wallets/not-a-uuid'), 400, 'walletId');
  });

  it('hides the sandbox helpers from production applications', async () => {
    const production = await newCaller({ environment: 'production' });
    const created = await as(production, '/wallets', {
      method: 'POST',
      body: { walletName: 'Prod', assetCode: 'USDC', ownAccount: true },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.networkName, 'stellar-pubnet');
    const kyc = await as(production, `/sandbox/wallets/${created.body.id}/kyc`, {
      method: 'POST',
      body: { decision: 'Verified' },
    });
    assert.equal(kyc.status, 404);
  });
});
