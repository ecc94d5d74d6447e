// On-ramps end to end against the local stack: a business collects KES from a Kenyan M-Pesa
// counterparty through ke-momo-onramp-kes-usdc; the provider simulator collects (or is made to decline
// with the sandbox helper) and notifies the gateway; the connector's settlement account pays the wallet.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import { beforeAll, describe, it } from 'vitest';
import { findPlatformAccount } from '../../lib/ledger/platform-accounts.ts';
import { as, assertFieldError, type Caller, newCaller } from '../support/api.ts';
import {
  bankDestination,
  compliantIndividual,
  keMobileMoney,
  ONRAMP_CONNECTOR_ID,
} from '../support/fixtures.ts';
import {
  balancesOf,
  type OwnWallet,
  operationsOf,
  ownWallet,
  recordWhen,
  submit,
} from '../support/payments.ts';
import { newCounterparty, onrampQuote } from '../support/ramps.ts';

const sum = (...amounts: (string | number)[]) =>
  amounts.reduce<BigNumber>((t, a) => t.plus(a), new BigNumber(0)).toFixed(7);

describe('on-ramp', () => {
  let alice: Caller;
  let wallet: OwnWallet;
  let wanjiru: { senderId: string; paymentDestinationId: string };

  const body = (quoteId: string, extra: Record<string, unknown> = {}) => ({
    transactionId: randomUUID(),
    walletId: wallet.id,
    ...wanjiru,
    quoteId,
    senderSourceOfFunds: 'SALARY',
    ...extra,
  });

  beforeAll(async () => {
    alice = await newCaller();
    wallet = await ownWallet(alice, 'USDC');
    wanjiru = await newCounterparty(alice, {
      ...compliantIndividual,
      firstName: 'Wanjiru',
      lastName: 'Kamau',
      idCountryIsoCode2: 'KE',
    });
  });

  it('collects from the counterparty and pays receiveAmount into the wallet from the settlement account', async () => {
    const quote = await onrampQuote(alice, wanjiru);
    const before = await balancesOf(wallet.publicKey);
    const answer = await submit(alice, 'onramp', body(quote.quoteId, { fromRef: 'TOPUP-1' }));
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const record = await recordWhen(alice, answer.body.transactionRecordId, (r) => r.status === 'completed');
    assert.equal(record.type, 'onramp');
    assert.equal(record.connectorId, ONRAMP_CONNECTOR_ID);
    assert.equal(record.method, 'MOMO');
    assert.equal(record.destinationCountryIso, 'KE');
    assert.equal(record.sendAmount, quote.sendAmount);
    assert.equal(record.sendCurrency, 'KES');
    assert.equal(record.fee, quote.fee);
    assert.equal(record.receiveAmount, quote.receiveAmount);
    assert.equal(record.receiveCurrency, 'USDC');
    assert.equal(record.beneficiaryFirstName, 'Wanjiru');
    assert.match(record.externalReference, /^SIM-/);
    assert.ok(record.completedAt);
    const settlement = (await findPlatformAccount('sandbox', `settlement:${ONRAMP_CONNECTOR_ID}`))?.publicKey;
    const [payment] = (await operationsOf(record.stellarTxHash)).filter((op) => op.type === 'payment');
    assert.deepEqual(
      [payment?.from, payment?.to, (payment as { amount?: string })?.amount],
      [settlement, wallet.publicKey, new BigNumber(quote.receiveAmount).toFixed(7)],
    );
    assert.equal((await balancesOf(wallet.publicKey)).USDC, sum(before.USDC ?? 0, quote.receiveAmount));
  });

  it('a declined collection fails and moves nothing', async () => {
    const quote = await onrampQuote(alice, wanjiru, 500);
    const before = await balancesOf(wallet.publicKey);
    const answer = await submit(alice, 'onramp', body(quote.quoteId, { toRef: 'HOLD-ON' }));
    const id = answer.body.transactionRecordId;
    await recordWhen(alice, id, (r) => r.status === 'processing' && r.externalReference !== null);
    const declined = await as(alice, `/sandbox/transactions/${id}/fail`, { method: 'POST' });
    assert.equal(declined.status, 202, JSON.stringify(declined.body));
    const record = await recordWhen(alice, id, (r) => r.status === 'failed');
    assert.equal(record.errorCode, 'COLLECTION_FAILED');
    assert.equal(record.stellarTxHash, null);
    assert.equal((await balancesOf(wallet.publicKey)).USDC, sum(before.USDC ?? 0));
  });

  it("the connector's daily limit holds across collections, and a declined one gives its share back", async () => {
    // ke-momo-onramp-kes-usdc: 150,000 KES a collection, 500,000 KES a rolling day per association.
    const caller = await newCaller();
    const receiving = await ownWallet(caller, 'USDC');
    const payer = await newCounterparty(caller, { ...compliantIndividual, idCountryIsoCode2: 'KE' });
    const collect = async (amount: number, extra: Record<string, unknown> = {}) =>
      submit(caller, 'onramp', {
        ...body((await onrampQuote(caller, payer, amount)).quoteId, extra),
        ...payer,
        walletId: receiving.id,
      });
    const held = await collect(150_000, { toRef: 'HOLD-LIMIT' });
    assert.equal(held.status, 202, JSON.stringify(held.body));
    for (const answer of [await collect(150_000), await collect(150_000)])
      assert.equal(answer.status, 202, JSON.stringify(answer.body));
    assertFieldError(await collect(100_000), 422, 'amount', /DAILY AMOUNT limit \(connector\) of 500000 KES/);

    const id = held.body.transactionRecordId;
    await recordWhen(caller, id, (r) => r.status === 'processing' && r.externalReference !== null);
    const declined = await as(caller, `/sandbox/transactions/${id}/fail`, { method: 'POST' });
    assert.equal(declined.status, 202, JSON.stringify(declined.body));
    await recordWhen(caller, id, (r) => r.status === 'failed');
    const fits = await collect(100_000);
    assert.equal(fits.status, 202, JSON.stringify(fits.body));
  });

  it('a held collection (toRef HOLD…) waits in processing until the sandbox helper completes it, then pays the wallet', async () => {
    const quote = await onrampQuote(alice, wanjiru, 400);
    const before = await balancesOf(wallet.publicKey);
    const answer = await submit(alice, 'onramp', body(quote.quoteId, { toRef: 'HOLD-COLLECT' }));
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const id = answer.body.transactionRecordId;
    const held = await recordWhen(
      alice,
      id,
      (r) => r.status === 'processing' && r.externalReference !== null,
    );
    assert.equal(held.stellarTxHash, null);
    assert.equal((await balancesOf(wallet.publicKey)).USDC, before.USDC);
    const completed = await as(alice, `/sandbox/transactions/${id}/complete`, { method: 'POST' });
    assert.equal(completed.status, 202, JSON.stringify(completed.body));
    assert.equal(completed.body.providerStatus, 'completed');
    const record = await recordWhen(alice, id, (r) => r.status === 'completed');
    assert.ok(record.completedAt);
    const [payment] = (await operationsOf(record.stellarTxHash)).filter((op) => op.type === 'payment');
    assert.deepEqual(
      [payment?.to, (payment as { amount?: string })?.amount],
      [wallet.publicKey, new BigNumber(quote.receiveAmount).toFixed(7)],
    );
    assert.equal((await balancesOf(wallet.publicKey)).USDC, sum(before.USDC ?? 0, quote.receiveAmount));
  });

  it('refuses what the rules refuse, naming the member', async () => {
    const quote = await onrampQuote(alice, wanjiru, 200);
    // The wallet must be the caller's own and Verified.
    const pending = await as(alice, '/wallets', {
      method: 'POST',
      body: {
        walletName: 'KYC',
        assetCode: 'USDC',
        metadata: { entityType: 'Person', ...compliantIndividual, nationality: 'KE' },
      },
    });
    assertFieldError(
      await submit(alice, 'onramp', body(quote.quoteId, { walletId: pending.body.id })),
      403,
      'walletId',
    );
    // The counterparty and its destination must be the caller's, and mobile money.
    assertFieldError(
      await submit(alice, 'onramp', body(quote.quoteId, { senderId: randomUUID() })),
      404,
      'senderId',
    );
    const banked = await newCounterparty(
      alice,
      { ...compliantIndividual, idCountryIsoCode2: 'KE' },
      bankDestination,
    );
    assertFieldError(
      await submit(alice, 'onramp', { ...body(quote.quoteId), ...banked }),
      422,
      'paymentDestinationId',
    );
    // An off-ramp quote is not an on-ramp quote.
    const offQuote = await as(alice, '/quotes', {
      method: 'POST',
      body: { amount: 10, connectorId: 'za-bank-offramp-usdc-zar', transactionType: 'B2C' },
    });
    assertFieldError(await submit(alice, 'onramp', body(offQuote.body.quoteId)), 422, 'quoteId');
    // The counterparty's classification must give the quoted corridor: a business pays B2B, not C2B.
    const acme = await as(alice, '/beneficiaries', {
      method: 'POST',
      body: { business: { registeredName: 'Acme', registrationNumber: 'K-1', countryIsoCode2: 'KE' } },
    });
    const acmeMomo = await as(alice, `/beneficiaries/${acme.body.id}/payment-destinations`, {
      method: 'POST',
      body: keMobileMoney,
    });
    const exploratory = await as(alice, '/quotes?type=onramp', {
      method: 'POST',
      body: { amount: 200, connectorId: ONRAMP_CONNECTOR_ID, transactionType: 'C2B' },
    });
    assertFieldError(
      await submit(alice, 'onramp', {
        ...body(exploratory.body.quoteId),
        senderId: acme.body.id,
        paymentDestinationId: acmeMomo.body.id,
      }),
      422,
      'senderId',
      /B2B collection; the quote was priced for C2B/,
    );
    // Required fields: each missing one named (the ID country on the body or the counterparty).
    const bare = await newCounterparty(alice, { firstName: 'Otieno', lastName: 'Odhiambo' });
    const bareQuote = await onrampQuote(alice, bare, 200);
    const missing = await submit(alice, 'onramp', {
      ...body(bareQuote.quoteId),
      ...bare,
      senderSourceOfFunds: undefined,
    });
    assert.equal(missing.status, 422, JSON.stringify(missing.body));
    assert.deepEqual(missing.body.errors.map((e: { field: string }) => e.field).sort(), [
      'sender.individual.dateOfBirth',
      'sender.individual.idNumber',
      'sender.individual.idType',
      'senderIdCountryIsoCode',
      'senderSourceOfFunds',
    ]);
    // A quote executes once.
    const first = await submit(alice, 'onramp', body(quote.quoteId));
    assert.equal(first.status, 202, JSON.stringify(first.body));
    assertFieldError(await submit(alice, 'onramp', body(quote.quoteId)), 409, 'quoteId');
  });
});
