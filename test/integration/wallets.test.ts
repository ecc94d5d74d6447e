import assert from 'node:assert/strict';
import { beforeAll, describe, it } from 'vitest';
import { routes } from '../../lib/routes.ts';
import {
  type ApiResponse,
  as,
  assertAnsweredAsMissing,
  assertFieldError,
  type Caller,
  horizon,
  newCaller,
} from '../support/api.ts';
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

/** A wallet's balances by asset code: [balance, spendable]. */
const balanceAndSpendable = (balances: { assetCode: string; balance: string; spendable: string }[]) =>
  Object.fromEntries(balances.map((b) => [b.assetCode, [b.balance, b.spendable]]));

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
    // The 1.5 XLM it shows is the ledger's reserve (the account and its trustline): none of it spendable.
    const xlm = active.body.balances.find((b: { assetCode: string }) => b.assetCode === 'XLM');
    assert.deepEqual(
      { balance: xlm.balance, spendable: xlm.spendable },
      { balance: '1.5000000', spendable: '0.0000000' },
    );

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

  it('shows what is spendable beside each balance: XLM less the ledger’s reserve, an asset all of it', async () => {
    const created = await as(alice, '/wallets', {
      method: 'POST',
      body: { walletName: 'Spendable', assetCode: 'USDC', ownAccount: true },
    });
    const id = created.body.id;
    for (const body of [
      { assetCode: 'XLM', amount: 10 },
      { assetCode: 'USDC', amount: 7.25 },
    ]) {
      const funded = await as(alice, `/sandbox/wallets/${id}/fund`, { method: 'POST', body });
      assert.equal(funded.status, 200, JSON.stringify(funded.body));
    }
    const wallet = (await as(alice, `/wallets/${id}`)).body;
    const shown = balanceAndSpendable(wallet.balances);
    // 2 base reserves for the account and 1 for its trustline, 0.5 XLM each, are the ledger's to keep.
    assert.deepEqual(shown, { XLM: ['11.5000000', '10.0000000'], USDC: ['7.2500000', '7.2500000'] });
    const ledger = await horizon(`/accounts/${wallet.publicKey}`);
    assert.equal(ledger.subentry_count, 1);
  });

  it('funds an own wallet an asset it does not trust yet by opening the trustline; a third party’s is refused', async () => {
    const own = await as(alice, '/wallets', {
      method: 'POST',
      body: { walletName: 'Own USDC', assetCode: 'USDC', ownAccount: true },
    });
    const funded = await as(alice, `/sandbox/wallets/${own.body.id}/fund`, {
      method: 'POST',
      body: { assetCode: 'EURC', amount: 5 },
    });
    assert.equal(funded.status, 200, JSON.stringify(funded.body));
    assert.equal(funded.body.assetCode, 'EURC');
    const shown = balanceAndSpendable((await as(alice, `/wallets/${own.body.id}`)).body.balances);
    // The second trustline's reserve (0.5 XLM) is topped up by the platform: still nothing to spend in XLM.
    assert.deepEqual(shown, {
      XLM: ['2.0000000', '0.0000000'],
      USDC: ['0.0000000', '0.0000000'],
      EURC: ['5.0000000', '5.0000000'],
    });

    const third = await as(alice, '/wallets', {
      method: 'POST',
      body: { walletName: 'Third USDC', assetCode: 'USDC', metadata: person },
    });
    const refused = await as(alice, `/sandbox/wallets/${third.body.id}/fund`, {
      method: 'POST',
      body: { assetCode: 'EURC', amount: 5 },
    });
    assertFieldError(refused, 422, 'assetCode', /NO_TRUST/);
    const trusted = (await horizon(`/accounts/${third.body.publicKey}`)).balances.map(
      (b: { asset_code?: string }) => b.asset_code ?? 'XLM',
    );
    assert.deepEqual(trusted.sort(), ['USDC', 'XLM']);
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
    const unknown = crypto.randomUUID();
    const alike = async (
      path: (walletId: string) => string,
      options: { method?: string; body?: unknown } = {},
    ) => {
      const [theirs, missing] = [await as(bob, path(id), options), await as(bob, path(unknown), options)];
      assertAnsweredAsMissing(theirs, id, missing, unknown, path('{id}'));
    };
    await alike((walletId) => `/wallets/${walletId}`);
    await alike((walletId) => `/sandbox/wallets/${walletId}/kyc`, {
      method: 'POST',
      body: { decision: 'Verified' },
    });
    await alike((walletId) => `/sandbox/wallets/${walletId}/fund`, {
      method: 'POST',
      body: { assetCode: 'USDC', amount: 1 },
    });
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
      body: { walletName: 'Prod', assetCode: 'USDC', metadata: person },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.networkName, 'stellar-pubnet');
    // Every sandbox route of the route table, with a body it would take in sandbox: the production
    // application's own wallet, and ids a sandbox tenant would be told are missing (a different detail).
    const params: Record<string, string> = {
      walletId: created.body.id,
      destinationId: crypto.randomUUID(),
      transactionRecordId: crypto.randomUUID(),
      outcome: 'complete',
      customerId: 'customer-1',
      connectorId: 'za-bank-onramp-zar-usdc',
      reference: 'PG0000000001',
    };
    const bodies: Record<string, unknown> = {
      decideCustomer: { decision: 'VERIFIED' },
      payIntoReference: { amount: 1000, currency: 'ZAR' },
      decideKyc: { decision: 'Verified' },
      fundWallet: { assetCode: 'USDC', amount: 1 },
      verifyPaymentDestination: { decision: 'APPROVED' },
      requestRecipientCode: { channel: 'email', address: 'someone@example.com' },
      confirmRecipient: { channel: 'email', address: 'someone@example.com', code: '123456' },
    };
    const sandbox = routes.filter((route) => route.path.startsWith('/sandbox/'));
    assert.deepEqual(sandbox.map((route) => route.operation).sort(), [
      'confirmRecipient',
      'decideCustomer',
      'decideKyc',
      'fundWallet',
      'payIntoReference',
      'requestRecipientCode',
      'settleRampInstruction',
      'verifyPaymentDestination',
    ]);
    for (const route of sandbox) {
      const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '');
      // Answered as no route is (functions/api/fallback.ts) before anything of the request is read:
      // a body it would take, one it would refuse, malformed JSON, an id that is no UUID.
      for (const body of [bodies[route.operation], { unknown: 'x'.repeat(1000) }, '{"decision":']) {
        const answer = await as(production, path, { method: route.method, body });
        const what = `${route.method} ${route.path} → ${answer.status} ${JSON.stringify(answer.body)}`;
        assert.equal(answer.status, 404, what);
        assert.match(answer.body.type, /\/not-found$/, what);
        assert.equal(answer.body.detail, `No route ${route.method} /v1${path}.`, what);
        assert.equal(answer.body.errors, undefined, what);
      }
    }
    const notUuid = await as(production, '/sandbox/wallets/not-a-uuid/fund', { method: 'POST', body: {} });
    assert.equal(notUuid.body.detail, 'No route POST /v1/sandbox/wallets/not-a-uuid/fund.');
    // The KYC helper decided nothing: the third party's review is still pending.
    assert.equal((await as(production, `/wallets/${created.body.id}`)).body.status, 'Pending');
  });
});
