// Off-ramps end to end against the local stack: the local ledger and the provider simulator (a real HTTP
// service on loopback that calls the gateway's provider-notification route back, signed). A new business
// pays a South African bank account through za-bank-offramp-usdc-zar: completed by the provider; failed
// and returned by the sandbox helpers, each refunded on the ledger exactly once; and the acceptance rules.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import BigNumber from 'bignumber.js';
import { beforeAll, describe, it } from 'vitest';
import { config } from '../../lib/config.ts';
import { db, tableName } from '../../lib/db/client.ts';
import { exists } from '../../lib/db/conditions.ts';
import { updateIf } from '../../lib/db/items.ts';
import { type ItemKey, ledgerKeys, providerKeys, quoteKeys } from '../../lib/db/keys.ts';
import { findPlatformAccount } from '../../lib/ledger/platform-accounts.ts';
import { executeTransaction } from '../../lib/payments/execution.ts';
import { reserveRampUse } from '../../lib/payments/ramps/usage.ts';
import { transactionRecordIdOf } from '../../lib/payments/record-ids.ts';
import { findProviderSecret } from '../../lib/providers/repo.ts';
import { SIGNATURE_HEADER, signNotification } from '../../lib/providers/signature.ts';
import { as, assertFieldError, baseUrl, type Caller, newCaller } from '../support/api.ts';
import {
  bankDestination,
  beneficiaryAddress,
  compliantIndividual,
  RAMP_CONNECTOR_ID,
} from '../support/fixtures.ts';
import {
  balancesOf,
  type OwnWallet,
  operationsOf,
  ownWallet,
  recordWhen,
  submit,
  unopenedWallet,
} from '../support/payments.ts';

const CONNECTOR = RAMP_CONNECTOR_ID;
const sum = (...amounts: (string | number)[]) =>
  amounts.reduce<BigNumber>((t, a) => t.plus(a), new BigNumber(0)).toFixed(7);

const compliantPerson = compliantIndividual;
const address = beneficiaryAddress;
const zaBank = bankDestination;

async function newPayee(caller: Caller, individual = compliantPerson, addresses = [address]) {
  const beneficiary = await as(caller, '/beneficiaries', { method: 'POST', body: { individual, addresses } });
  assert.equal(beneficiary.status, 201, JSON.stringify(beneficiary.body));
  const destination = await as(caller, `/beneficiaries/${beneficiary.body.id}/payment-destinations`, {
    method: 'POST',
    body: zaBank,
  });
  assert.equal(destination.status, 201, JSON.stringify(destination.body));
  return {
    beneficiaryId: beneficiary.body.id as string,
    paymentDestinationId: destination.body.id as string,
  };
}

/** A new payee whose destination the sandbox verification REJECTED: 100 USDC a payment and a day. */
async function rejectedPayee(caller: Caller) {
  const payee = await newPayee(caller);
  const decided = await as(
    caller,
    `/sandbox/payment-destinations/${payee.paymentDestinationId}/verification`,
    { method: 'POST', body: { decision: 'REJECTED' } },
  );
  assert.equal(decided.status, 200, JSON.stringify(decided.body));
  return payee;
}

/** A Kenyan beneficiary paid on M-Pesa at the person's own `mobile`. */
async function kenyanPayee(caller: Caller, individual: typeof compliantPerson & { mobile: string }) {
  const kenyan = await as(caller, '/beneficiaries', { method: 'POST', body: { individual } });
  assert.equal(kenyan.status, 201, JSON.stringify(kenyan.body));
  const momo = await as(caller, `/beneficiaries/${kenyan.body.id}/payment-destinations`, {
    method: 'POST',
    body: {
      method: 'MOBILE_MONEY',
      countryIsoCode2: 'KE',
      currencyIsoCode3: 'KES',
      mobileNumber: individual.mobile,
      provider: 'MPESA',
    },
  });
  assert.equal(momo.status, 201, JSON.stringify(momo.body));
  return { beneficiaryId: kenyan.body.id as string, paymentDestinationId: momo.body.id as string };
}

async function newQuote(
  caller: Caller,
  payee: { beneficiaryId: string; paymentDestinationId: string },
  amount = 100,
) {
  const quote = await as(caller, '/quotes', {
    method: 'POST',
    body: { amount, connectorId: CONNECTOR, ...payee },
  });
  assert.equal(quote.status, 201, JSON.stringify(quote.body));
  return quote.body;
}

// biome-ignore lint/suspicious/noExplicitAny: records are asserted on member by member.
type Json = any;

/** The simulator's view of an instruction (its GET, signed as the gateway signs). */
async function instructionAtProvider(reference: string) {
  const secret = (await findProviderSecret('sandbox', CONNECTOR)) as Buffer;
  const response = await fetch(
    `${providerBase()}/sandbox/connectors/${CONNECTOR}/instructions/${reference}`,
    {
      headers: { [SIGNATURE_HEADER]: signNotification(secret, '', new Date()) },
    },
  );
  return { status: response.status, body: (await response.json()) as Json };
}

/** Makes the simulator misbehave for its next instructions (null: behave again). */
async function providerFault(
  fault: { mode: 'unavailable' | 'reject' | 'slow'; count: number; statementReference: string } | null,
) {
  const response = await fetch(`${providerBase()}/faults`, {
    method: 'POST',
    body: JSON.stringify(fault ?? {}),
  });
  assert.equal(response.status, 200);
}

const providerBase = () => new URL(config().PROVIDER_URL_SANDBOX as string).origin;

describe('off-ramp', () => {
  let alice: Caller;
  let wallet: OwnWallet;
  let payee: { beneficiaryId: string; paymentDestinationId: string };
  let settlement: string;

  const body = (quoteId: string, extra: Record<string, unknown> = {}) => ({
    transactionId: randomUUID(),
    walletId: wallet.id,
    ...payee,
    quoteId,
    sendingAssetCode: 'USDC',
    purpose: 'FAMILY_SUPPORT',
    sourceOfFunds: 'SALARY',
    ...extra,
  });

  beforeAll(async () => {
    alice = await newCaller();
    wallet = await ownWallet(alice, 'USDC', 1000);
    payee = await newPayee(alice);
    settlement = (await findPlatformAccount('sandbox', `settlement:${CONNECTOR}`))?.publicKey ?? '';
    assert.ok(settlement, 'the connector has its settlement account');
  });

  it('pays total to the settlement account, instructs the provider, and completes on its notification', async () => {
    const quote = await newQuote(alice, payee);
    const before = { wallet: await balancesOf(wallet.publicKey) };
    const request = body(quote.quoteId, { toRef: 'INV-77' });
    const answer = await submit(alice, 'offramp', request);
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const record = await recordWhen(alice, answer.body.transactionRecordId, (r) => r.status === 'completed');
    assert.equal(record.type, 'offramp');
    assert.equal(record.connectorId, CONNECTOR);
    assert.equal(record.connectorName, 'South Africa bank payout');
    assert.equal(record.method, 'BANK');
    assert.equal(record.destinationCountryIso, 'ZA');
    assert.equal(record.quoteId, quote.quoteId);
    assert.equal(record.sendAmount, quote.sendAmount);
    assert.equal(record.originalSendAmount, quote.total);
    assert.equal(record.fee, quote.fee);
    assert.equal(record.receiveAmount, quote.receiveAmount);
    assert.equal(record.receiveCurrency, 'ZAR');
    assert.equal(record.exchangeRate, quote.rate);
    assert.equal(record.beneficiaryFirstName, 'Thandi');
    assert.equal(record.isP2pTransfer, false);
    assert.match(record.externalReference, /^SIM-/);
    assert.match(record.stellarTxHash, /^[0-9a-f]{64}$/);
    assert.ok(record.completedAt);
    assert.equal((await balancesOf(wallet.publicKey)).USDC, sum(before.wallet.USDC ?? 0, -quote.total));
    // The ledger leg: one payment of the total from the wallet to the settlement account (whose balance
    // other files' off-ramps move at the same time, so it is read from the transaction).
    const [payment] = (await operationsOf(record.stellarTxHash)).filter((op) => op.type === 'payment');
    assert.deepEqual(
      [payment?.from, payment?.to, (payment as { amount?: string })?.amount],
      [wallet.publicKey, settlement, new BigNumber(quote.total).toFixed(7)],
    );

    // The same submission again is a replay; the quote on another transactionId is a second payment: 409.
    const replay = await submit(alice, 'offramp', request);
    assert.equal(replay.status, 202);
    assert.equal(replay.body.isIdempotent, true);
    const second = await submit(alice, 'offramp', { ...request, transactionId: randomUUID() });
    assertFieldError(second, 409, 'quoteId');
  });

  for (const [outcome, from] of [
    ['fail', 'processing'],
    ['return', 'completed'],
  ] as const)
    it(`a payout the provider ${outcome}s after the ledger leg is refunded exactly once`, async () => {
      const quote = await newQuote(alice, payee, 40);
      const before = await balancesOf(wallet.publicKey);
      const answer = await submit(alice, 'offramp', body(quote.quoteId, { toRef: 'HOLD-1' }));
      assert.equal(answer.status, 202, JSON.stringify(answer.body));
      const id = answer.body.transactionRecordId;
      await recordWhen(alice, id, (r) => r.status === 'processing' && r.externalReference !== null);
      if (from === 'completed') {
        const completed = await as(alice, `/sandbox/transactions/${id}/complete`, { method: 'POST' });
        assert.equal(completed.status, 202, JSON.stringify(completed.body));
        await recordWhen(alice, id, (r) => r.status === 'completed');
      }
      const moved = await as(alice, `/sandbox/transactions/${id}/${outcome}`, { method: 'POST' });
      assert.equal(moved.status, 202, JSON.stringify(moved.body));
      const record = await recordWhen(alice, id, (r) => r.status === 'refund_completed');
      assert.equal(record.errorCode, outcome === 'fail' ? 'PROVIDER_FAILED' : 'PAYOUT_RETURNED');
      assert.match(record.refundTxHash, /^[0-9a-f]{64}$/);
      assert.notEqual(record.refundTxHash, record.stellarTxHash);
      // Back where it started, to the stroop: paid once, refunded once.
      assert.equal((await balancesOf(wallet.publicKey)).USDC, sum(before.USDC ?? 0));
      // Asking again answers as it stands; completing it now is refused; nothing changes.
      const again = await as(alice, `/sandbox/transactions/${id}/${outcome}`, { method: 'POST' });
      assert.equal(again.status, 202, JSON.stringify(again.body));
      const complete = await as(alice, `/sandbox/transactions/${id}/complete`, { method: 'POST' });
      assert.equal(complete.status, 409, JSON.stringify(complete.body));
      const after = await as(alice, `/transactions/${id}`);
      assert.equal(after.body.status, 'refund_completed');
      assert.equal((await balancesOf(wallet.publicKey)).USDC, sum(before.USDC ?? 0));
    });

  it('a ledger leg the wallet cannot pay fails and moves nothing: no instruction, no refund', async () => {
    const poor = await unopenedWallet(alice);
    const quote = await newQuote(alice, payee, 20);
    const answer = await submit(alice, 'offramp', body(quote.quoteId, { walletId: poor.id }));
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    await poor.open();
    const record = await recordWhen(alice, answer.body.transactionRecordId, (r) => r.status !== 'initiated');
    assert.equal(record.status, 'failed', JSON.stringify(record));
    assert.match(record.errorCode, /UNDERFUNDED/);
    assert.equal(record.externalReference, null);
    assert.equal(record.refundTxHash, null);
    assert.equal((await balancesOf(poor.publicKey)).USDC, '0.0000000');
    const atProvider = await instructionAtProvider(answer.body.transactionRecordId);
    assert.equal(atProvider.status, 404);
  });

  it('refuses with 422 on amount an off-ramp whose total (amount and fee) is over what the wallet can spend', async () => {
    const poor = await ownWallet(alice, 'USDC', 5);
    const before = await balancesOf(poor.publicKey);
    // The amount alone fits; with the fee on top it does not.
    const quote = await newQuote(alice, payee, 5);
    assert.ok(Number(quote.sendAmount) <= 5 && Number(quote.total) > 5, JSON.stringify(quote));
    const answer = await submit(alice, 'offramp', body(quote.quoteId, { walletId: poor.id }));
    assertFieldError(
      answer,
      422,
      'amount',
      new RegExp(`^${quote.total} USDC is more than wallet .* can spend 5\\.0000000 USDC`),
    );
    assert.deepEqual(
      answer.body.errors.map((e: { field: string }) => e.field),
      ['amount'],
    );
    assert.equal(
      (await as(alice, '/transactions')).body.data.some((r: Json) => r.walletId === poor.id),
      false,
    );
    assert.equal((await balancesOf(poor.publicKey)).USDC, sum(before.USDC ?? 0));
  });

  it('a payout the provider refuses outright is failed and refunded; an unavailable provider is waited for', async () => {
    const before = await balancesOf(wallet.publicKey);
    await providerFault({ mode: 'reject', count: 1, statementReference: 'REJECT-1' });
    const refused = await submit(
      alice,
      'offramp',
      body((await newQuote(alice, payee, 12)).quoteId, { toRef: 'REJECT-1' }),
    );
    const record = await recordWhen(
      alice,
      refused.body.transactionRecordId,
      (r) => r.status === 'refund_completed',
    );
    assert.equal(record.errorCode, 'PROVIDER_REJECTED');
    assert.equal((await balancesOf(wallet.publicKey)).USDC, sum(before.USDC ?? 0));

    // Unavailable twice: the record waits in processing (re-queued), then the payout is instructed once.
    await providerFault({ mode: 'unavailable', count: 2, statementReference: 'DOWN-1' });
    const waited = await submit(
      alice,
      'offramp',
      body((await newQuote(alice, payee, 3)).quoteId, { toRef: 'DOWN-1' }),
    );
    const done = await recordWhen(alice, waited.body.transactionRecordId, (r) => r.status === 'completed');
    assert.match(done.externalReference, /^SIM-/);
    const atProvider = await instructionAtProvider(waited.body.transactionRecordId);
    assert.equal(atProvider.body.submissions, 1);
  });

  it('a worker that dies between the ledger leg and the instruction: redelivered, the payout is instructed once', async () => {
    // Every instruction refused as unavailable: the record stays processing without an instruction,
    // as a worker that died after the ledger leg leaves it.
    await providerFault({ mode: 'unavailable', count: 1000, statementReference: 'HOLD-CRASH' });
    const answer = await submit(
      alice,
      'offramp',
      body((await newQuote(alice, payee, 2)).quoteId, { toRef: 'HOLD-CRASH' }),
    );
    const id = answer.body.transactionRecordId;
    await recordWhen(alice, id, (r) => r.status === 'processing');
    await providerFault(null);
    // The message delivered twice at once (SQS at-least-once), beside the worker's own re-queued one.
    const message = {
      kind: 'payment' as const,
      environment: 'sandbox' as const,
      associationId: alice.tenant.associationId,
      transactionRecordId: id,
      requestedAt: new Date().toISOString(),
    };
    await Promise.all([executeTransaction(message), executeTransaction(message)]);
    const record = await recordWhen(alice, id, (r) => r.externalReference !== null);
    assert.equal(record.status, 'processing');
    const atProvider = await instructionAtProvider(id);
    assert.equal(atProvider.status, 200);
    assert.equal(atProvider.body.providerReference, record.externalReference);
    // One payout for this payment (HOLD-CRASH is its statement reference alone), under our reference, and
    // never sent again once its answer is recorded: a redelivery now leaves the count as it is.
    assert.equal(atProvider.body.withStatementReference, 1);
    await executeTransaction({ ...message, requestedAt: new Date().toISOString() });
    assert.equal((await instructionAtProvider(id)).body.submissions, atProvider.body.submissions);
  });

  it('accepts a destination in any verification state, checked against that state’s limits', async () => {
    const bob = await newCaller();
    const bobWallet = await ownWallet(bob, 'USDC', 500);
    for (const decision of ['APPROVED', 'REJECTED'] as const) {
      const p = await newPayee(bob);
      const decided = await as(bob, `/sandbox/payment-destinations/${p.paymentDestinationId}/verification`, {
        method: 'POST',
        body: { decision },
      });
      assert.equal(decided.status, 200, JSON.stringify(decided.body));
      const ok = await submit(bob, 'offramp', {
        ...body((await newQuote(bob, p, 50)).quoteId),
        ...p,
        walletId: bobWallet.id,
      });
      assert.equal(ok.status, 202, `${decision}: ${JSON.stringify(ok.body)}`);
    }
    // REJECTED: 100 USDC a payment and a day, whatever the connector allows.
    const rejected = await newPayee(bob);
    await as(bob, `/sandbox/payment-destinations/${rejected.paymentDestinationId}/verification`, {
      method: 'POST',
      body: { decision: 'REJECTED' },
    });
    const over = await submit(bob, 'offramp', {
      ...body((await newQuote(bob, rejected, 150)).quoteId),
      ...rejected,
      walletId: bobWallet.id,
    });
    assertFieldError(over, 422, 'amount', /TRANSACTION AMOUNT limit \(destination REJECTED/);
    // The rolling day counts bob's earlier payments through the connector (50 + 50): 60 more is over 100.
    const daily = await submit(bob, 'offramp', {
      ...body((await newQuote(bob, rejected, 60)).quoteId),
      ...rejected,
      walletId: bobWallet.id,
    });
    assertFieldError(daily, 422, 'amount', /DAILY AMOUNT limit/);
  });

  it('concurrent submissions cannot exceed a limit together: exactly the ones that fit are accepted', async () => {
    /** A new business paying a REJECTED destination (100 USDC a day) eight times 30 at once. */
    const burst = async () => {
      const caller = await newCaller();
      const funded = await ownWallet(caller, 'USDC', 1000);
      const payee = await rejectedPayee(caller);
      const quotes = await Promise.all(Array.from({ length: 8 }, () => newQuote(caller, payee, 30)));
      const answers = await Promise.all(
        quotes.map((quote) =>
          submit(caller, 'offramp', { ...body(quote.quoteId), ...payee, walletId: funded.id }),
        ),
      );
      return { caller, funded, payee, answers };
    };
    // Three bursts at once (three businesses), so the submissions interleave in many ways: in each, three
    // fit and five do not.
    const bursts = await Promise.all([burst(), burst(), burst()]);
    for (const { answers } of bursts) {
      const refused = answers.filter((a) => a.status === 422);
      assert.deepEqual(
        [answers.filter((a) => a.status === 202).length, refused.length],
        [3, 5],
        JSON.stringify(answers.map((a) => [a.status, a.body.errors ?? a.body.transactionRecordId])),
      );
      for (const answer of refused) assertFieldError(answer, 422, 'amount', /DAILY AMOUNT limit/);
    }
    const [{ caller: carol, funded: carolWallet, payee: rejected }] = bursts;
    // A payment that fails before its ledger leg gives its share back (nothing left the wallet): 90 + 10
    // fit once it has failed, not while it counted.
    const poor = await unopenedWallet(carol);
    const failing = await submit(carol, 'offramp', {
      ...body((await newQuote(carol, rejected, 10)).quoteId),
      ...rejected,
      walletId: poor.id,
    });
    assert.equal(failing.status, 202, JSON.stringify(failing.body));
    await poor.open();
    await recordWhen(carol, failing.body.transactionRecordId, (r) => r.status === 'failed');
    const fits = await submit(carol, 'offramp', {
      ...body((await newQuote(carol, rejected, 10)).quoteId),
      ...rejected,
      walletId: carolWallet.id,
    });
    assert.equal(fits.status, 202, JSON.stringify(fits.body));
    // The day is full (100): a refunded payment gives its share back too, once refund_completed.
    await recordWhen(
      carol,
      fits.body.transactionRecordId,
      (r) => r.status === 'processing' || r.status === 'completed',
    );
    const over = await newQuote(carol, rejected, 10);
    assertFieldError(
      await submit(carol, 'offramp', { ...body(over.quoteId), ...rejected, walletId: carolWallet.id }),
      422,
      'amount',
      /DAILY AMOUNT limit/,
    );
    const failed = await as(carol, `/sandbox/transactions/${fits.body.transactionRecordId}/fail`, {
      method: 'POST',
    });
    if (failed.status === 409)
      // Completed already (the simulator's default): returned instead.
      assert.equal(
        (await as(carol, `/sandbox/transactions/${fits.body.transactionRecordId}/return`, { method: 'POST' }))
          .status,
        202,
      );
    else assert.equal(failed.status, 202, JSON.stringify(failed.body));
    await recordWhen(carol, fits.body.transactionRecordId, (r) => r.status === 'refund_completed');
    const after = await submit(carol, 'offramp', {
      ...body(over.quoteId),
      ...rejected,
      walletId: carolWallet.id,
    });
    assert.equal(after.status, 202, JSON.stringify(after.body));
  });

  it('twins under one transactionId neither skip the limits nor give back the use of the payment accepted', async () => {
    // A new business paying a REJECTED destination: 100 USDC a payment and a day. Each round sends one
    // payment and, around it, twins under its transactionId with other bodies (a quote of 1 from an empty
    // wallet: within the limits, then refused as more than the wallet can spend, which gives their use
    // back). Staggered, so twins hold the record's use before the payment reads it, and give it back after.
    const caller = await newCaller();
    const [funded, empty] = await Promise.all([ownWallet(caller, 'USDC', 1000), ownWallet(caller, 'USDC')]);
    const rejected = await rejectedPayee(caller);
    const offramp = (transactionId: string, quoteId: string, walletId: string) =>
      submit(caller, 'offramp', { ...body(quoteId), ...rejected, transactionId, walletId });
    /** The payment's answer in the race, then its answer sent again once the twins have theirs. */
    const round = async (amount: number) => {
      const transactionId = randomUUID();
      const [payment, twinQuotes] = await Promise.all([
        newQuote(caller, rejected, amount),
        Promise.all(Array.from({ length: 12 }, () => newQuote(caller, rejected, 1))),
      ]);
      const delayed = <T>(ms: number, send: () => Promise<T>) =>
        new Promise<T>((resolve, reject) => setTimeout(() => send().then(resolve, reject), ms));
      const [raced, ...twins] = await Promise.all([
        delayed(40, () => offramp(transactionId, payment.quoteId, funded.id)),
        ...twinQuotes.map((quote, i) =>
          delayed(i * 8, () => offramp(transactionId, quote.quoteId, empty.id)),
        ),
      ]);
      for (const twin of twins)
        assert.ok([409, 422].includes(twin.status), `a twin: ${twin.status} ${JSON.stringify(twin.body)}`);
      for (const answer of [raced, ...twins].filter((a) => a.status === 409))
        assertFieldError(answer, 409, 'transactionId', /retry in a moment|another route or body/);
      return { raced, again: await offramp(transactionId, payment.quoteId, funded.id) };
    };

    // Over the 100 a payment: never accepted, whatever a twin held when it was checked.
    for (let i = 0; i < 3; i += 1) {
      const { raced, again } = await round(150);
      assert.ok(
        [409, 422].includes(raced.status),
        `150 of 100: ${raced.status} ${JSON.stringify(raced.body)}`,
      );
      assertFieldError(again, 422, 'amount', /TRANSACTION AMOUNT limit/);
    }
    // Within it: accepted in the race or once the twins are done (a replay if it was accepted).
    const { raced, again } = await round(60);
    assert.ok([202, 409].includes(raced.status), `60 of 100: ${raced.status} ${JSON.stringify(raced.body)}`);
    assert.equal(again.status, 202, JSON.stringify(again.body));
    assert.equal(again.body.isIdempotent, raced.status === 202);
    // What was accepted keeps counting against the day: 60 more is over it, 40 more fits, then it is full.
    const pay = async (amount: number) =>
      offramp(randomUUID(), (await newQuote(caller, rejected, amount)).quoteId, funded.id);
    assertFieldError(await pay(60), 422, 'amount', /DAILY AMOUNT limit/);
    const last = await pay(40);
    assert.equal(last.status, 202, JSON.stringify(last.body));
    assertFieldError(await pay(1), 422, 'amount', /DAILY AMOUNT limit/);
  });

  it('a use held by a request still running is a 409 in progress; one its request left when it died is taken back', async () => {
    // The reservation a request makes first (lib/payments/ramps/usage.ts), made here as that request would, then the
    // request itself under the same transactionId.
    const hold = (transactionId: string, at: Date) =>
      reserveRampUse(
        alice.tenant,
        CONNECTOR,
        transactionRecordIdOf(alice.tenant, transactionId),
        '10',
        at,
        () => [],
      );
    const running = randomUUID();
    const claim = await hold(running, new Date());
    const quote = await newQuote(alice, payee, 10);
    const refused = await submit(alice, 'offramp', body(quote.quoteId, { transactionId: running }));
    assertFieldError(refused, 409, 'transactionId', /retry in a moment/);
    await claim.release();
    const retried = await submit(alice, 'offramp', body(quote.quoteId, { transactionId: running }));
    assert.equal(retried.status, 202, JSON.stringify(retried.body));

    const died = randomUUID();
    await hold(died, new Date(Date.now() - 120_000));
    const second = await newQuote(alice, payee, 10);
    const taken = await submit(alice, 'offramp', body(second.quoteId, { transactionId: died }));
    assert.equal(taken.status, 202, JSON.stringify(taken.body));
  });

  it('pays out to a Kenyan mobile-money account (telling the beneficiary by email) and a cash pickup', async () => {
    // SES's mailbox simulator: a sandbox notice goes to no address nobody verified (issue 36).
    const mobile = {
      ...compliantPerson,
      mobile: '+254712345678',
      email: 'success+wanjiru@simulator.amazonses.com',
    };
    const toMomo = await kenyanPayee(alice, mobile);
    const momoQuote = await as(alice, '/quotes', {
      method: 'POST',
      body: { amount: 15, connectorId: 'ke-momo-offramp-usdc-kes', ...toMomo },
    });
    assert.equal(momoQuote.status, 201, JSON.stringify(momoQuote.body));
    const paid = await submit(alice, 'offramp', {
      ...body(momoQuote.body.quoteId),
      ...toMomo,
      notifyEmail: true,
    });
    assert.equal(paid.status, 202, JSON.stringify(paid.body));
    const momoRecord = await recordWhen(
      alice,
      paid.body.transactionRecordId,
      // The beneficiary is told once it is paid out, off the request path (lib/notifications).
      (r) => r.status === 'completed' && r.notification.status !== 'pending',
    );
    assert.equal(momoRecord.method, 'MOMO');
    assert.equal(momoRecord.receiveCurrency, 'KES');
    assert.equal(momoRecord.notification.channel, 'email');
    assert.equal(momoRecord.notification.status, 'sent', JSON.stringify(momoRecord.notification));
    assert.ok(momoRecord.notification.sentAt);

    // Cash: quoted without a destination; paid to the beneficiary in person (any non-CRYPTO destination
    // of theirs names whom to pay).
    const cashQuote = await as(alice, '/quotes', {
      method: 'POST',
      body: { amount: 20, connectorId: 'cm-cash-offramp-usdc-xaf', beneficiaryId: toMomo.beneficiaryId },
    });
    assert.equal(cashQuote.status, 201, JSON.stringify(cashQuote.body));
    const cash = await submit(alice, 'offramp', { ...body(cashQuote.body.quoteId), ...toMomo });
    assert.equal(cash.status, 202, JSON.stringify(cash.body));
    const cashRecord = await recordWhen(
      alice,
      cash.body.transactionRecordId,
      (r) => r.status === 'completed',
    );
    assert.equal(cashRecord.method, 'CASH');
    assert.equal(cashRecord.receiveCurrency, 'XAF');
  });

  it('a connector without its settlement account or provider in the environment: 503, nothing written', async () => {
    const connectorId = 'ke-momo-offramp-usdc-kes';
    const toMomo = await kenyanPayee(alice, { ...compliantPerson, mobile: '+254712345679' });
    /** Submits with the item at `key` gone (put back after): the answer. */
    const without = async (key: ItemKey) => {
      const quote = await as(alice, '/quotes', {
        method: 'POST',
        body: { amount: 15, connectorId, ...toMomo },
      });
      assert.equal(quote.status, 201, JSON.stringify(quote.body));
      const request = { ...body(quote.body.quoteId), ...toMomo };
      const removed = await db.send(
        new DeleteCommand({ TableName: tableName(), Key: key, ReturnValues: 'ALL_OLD' }),
      );
      assert.ok(removed.Attributes, `${key.pk} ${key.sk} exists`);
      let answer: Awaited<ReturnType<typeof submit>>;
      try {
        answer = await submit(alice, 'offramp', request);
      } finally {
        await db.send(new PutCommand({ TableName: tableName(), Item: removed.Attributes }));
      }
      assert.equal(answer.status, 503, JSON.stringify(answer.body));
      assert.match(answer.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.match(
        answer.body.detail,
        new RegExp(`Connector ${connectorId} is not set up to execute in sandbox`),
      );
      // Nothing written: no record, and the quote is still free (the same request is accepted now).
      const id = transactionRecordIdOf(alice.tenant, request.transactionId);
      assert.equal((await as(alice, `/transactions/${id}`)).status, 404);
      const retried = await submit(alice, 'offramp', request);
      assert.equal(retried.status, 202, JSON.stringify(retried.body));
      assert.equal(retried.body.transactionRecordId, id);
    };
    await without(providerKeys.credential('sandbox', connectorId));
    await without(ledgerKeys.platformAccount('sandbox', `settlement:${connectorId}`));
  });

  it('the sandbox helpers answer 404 for another tenant’s record and for production applications', async () => {
    const quote = await newQuote(alice, payee, 4);
    const answer = await submit(alice, 'offramp', body(quote.quoteId, { toRef: 'HOLD-404' }));
    const id = answer.body.transactionRecordId;
    await recordWhen(alice, id, (r) => r.externalReference !== null);
    const [other, production] = await Promise.all([newCaller(), newCaller({ environment: 'production' })]);
    for (const caller of [other, production]) {
      const refused = await as(caller, `/sandbox/transactions/${id}/fail`, { method: 'POST' });
      assert.equal(refused.status, 404, JSON.stringify(refused.body));
    }
    assert.equal((await as(alice, `/transactions/${id}`)).body.status, 'processing');
    // Its own tenant can.
    const complete = await as(alice, `/sandbox/transactions/${id}/complete`, { method: 'POST' });
    assert.equal(complete.status, 202, JSON.stringify(complete.body));
    await recordWhen(alice, id, (r) => r.status === 'completed');
  });

  it('a return reported before its completion, or at the same moment, still fails and refunds the payout once', async () => {
    // The provider's signed notifications, as it may deliver them: out of order, or both at once.
    const url = `${baseUrl()}/provider-notifications/sandbox/${CONNECTOR}`;
    const secret = (await findProviderSecret('sandbox', CONNECTOR)) as Buffer;
    const notify = async (id: string, providerReference: string, status: 'completed' | 'returned') => {
      const text = JSON.stringify({
        notificationId: randomUUID(),
        kind: 'payout',
        reference: id,
        providerReference,
        status,
        reason: status === 'returned' ? 'The account is closed.' : null,
      });
      const answer = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signNotification(secret, text, new Date()),
        },
        body: text,
      });
      assert.equal(answer.status, 200, await answer.text());
    };
    const before = await balancesOf(wallet.publicKey);
    const held = await Promise.all(
      ['HOLD-ORDER', 'HOLD-RACE'].map(async (toRef) => {
        const answer = await submit(
          alice,
          'offramp',
          body((await newQuote(alice, payee, 10)).quoteId, { toRef }),
        );
        assert.equal(answer.status, 202, JSON.stringify(answer.body));
        const id: string = answer.body.transactionRecordId;
        const record = await recordWhen(
          alice,
          id,
          (r) => r.status === 'processing' && r.externalReference !== null,
        );
        return { id, reference: record.externalReference as string };
      }),
    );
    const [inOrder, racing] = held;
    if (!inOrder || !racing) throw new Error('two held payouts');
    await notify(inOrder.id, inOrder.reference, 'returned');
    await notify(inOrder.id, inOrder.reference, 'completed');
    await Promise.all([
      notify(racing.id, racing.reference, 'completed'),
      notify(racing.id, racing.reference, 'returned'),
    ]);
    for (const { id } of [inOrder, racing]) {
      const record = await recordWhen(alice, id, (r) => r.status === 'refund_completed');
      assert.equal(record.errorCode, 'PAYOUT_RETURNED');
      assert.equal(record.completedAt, null);
    }
    // Both paid once and refunded once, to the stroop.
    assert.equal((await balancesOf(wallet.publicKey)).USDC, sum(before.USDC ?? 0));
  });

  it('provider notifications: a forged, stale or replayed signature is a 401 and changes nothing', async () => {
    const quote = await newQuote(alice, payee, 10);
    const answer = await submit(alice, 'offramp', body(quote.quoteId, { toRef: 'HOLD-2' }));
    const id = answer.body.transactionRecordId;
    const held = await recordWhen(
      alice,
      id,
      (r) => r.status === 'processing' && r.externalReference !== null,
    );
    const url = `${baseUrl()}/provider-notifications/sandbox/${CONNECTOR}`;
    const secret = (await findProviderSecret('sandbox', CONNECTOR)) as Buffer;
    const notification = JSON.stringify({
      notificationId: randomUUID(),
      kind: 'payout',
      reference: id,
      providerReference: held.externalReference,
      status: 'completed',
      reason: null,
    });
    const post = (signature: string, text = notification) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature },
        body: text,
      });
    const forged = await post(signNotification('not-the-secret', notification, new Date()));
    const stale = await post(signNotification(secret, notification, new Date(Date.now() - 10 * 60_000)));
    const unsigned = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: notification,
    });
    assert.deepEqual([forged.status, stale.status, unsigned.status], [401, 401, 401]);
    assert.equal((await as(alice, `/transactions/${id}`)).body.status, 'processing');

    const genuine = await post(signNotification(secret, notification, new Date()));
    assert.equal(genuine.status, 200, await genuine.text());
    assert.equal((await as(alice, `/transactions/${id}`)).body.status, 'completed');
    // The same notification again, even freshly signed, is a replay.
    const replayed = await post(signNotification(secret, notification, new Date()));
    assert.equal(replayed.status, 401);
  });

  it('refuses what the rules refuse, naming the member', async () => {
    const quote = await newQuote(alice, payee, 20);
    const bob = await newCaller();
    // Another association's quote is not found.
    const foreign = await submit(bob, 'offramp', {
      ...body(quote.quoteId),
      walletId: (await ownWallet(bob, 'USDC')).id,
    });
    assert.equal(foreign.status, 404, JSON.stringify(foreign.body));
    // Pricing members are not accepted.
    assertFieldError(await submit(alice, 'offramp', body(quote.quoteId, { amount: 20 })), 400, 'amount');
    // The body must match the quote.
    assertFieldError(
      await submit(alice, 'offramp', body(quote.quoteId, { sendingAssetCode: 'EURC' })),
      422,
      'sendingAssetCode',
    );
    const other = await newPayee(alice);
    assertFieldError(
      await submit(
        alice,
        'offramp',
        body(quote.quoteId, {
          paymentDestinationId: other.paymentDestinationId,
          beneficiaryId: other.beneficiaryId,
        }),
      ),
      422,
      'beneficiaryId',
    );
    // Compliance: one error per missing field, on the body and on the beneficiary.
    const bare = await newPayee(
      alice,
      { firstName: 'Sipho', lastName: 'Dlamini' } as typeof compliantPerson,
      [],
    );
    const bareQuote = await newQuote(alice, bare, 20);
    const missing = await submit(alice, 'offramp', {
      ...body(bareQuote.quoteId),
      ...bare,
      sourceOfFunds: undefined,
    });
    assert.equal(missing.status, 422, JSON.stringify(missing.body));
    const fields = missing.body.errors.map((e: { field: string }) => e.field).sort();
    assert.deepEqual(fields, [
      'beneficiary.addresses',
      'beneficiary.individual.dateOfBirth',
      'beneficiary.individual.idNumber',
      'beneficiary.individual.idType',
      'sourceOfFunds',
    ]);
    assertFieldError(
      await submit(alice, 'offramp', body(quote.quoteId, { purpose: 'NOT_A_PURPOSE' })),
      422,
      'purpose',
    );
    // Limits: the connector's per-transaction 10000 USDC.
    const big = await newQuote(alice, payee, 10000);
    assert.equal(big.sendAmount, 10000);
    const overQuote = await as(alice, '/quotes', {
      method: 'POST',
      body: { amount: 10001, connectorId: CONNECTOR, ...payee },
    });
    assertFieldError(overQuote, 422, 'amount');
    // The destination PENDING caps one payment at 1000 USDC.
    const pendingDestination = await as(alice, `/beneficiaries/${payee.beneficiaryId}/payment-destinations`, {
      method: 'POST',
      body: { ...zaBank, accountNumber: '987654321' },
    });
    assert.equal(pendingDestination.status, 201, JSON.stringify(pendingDestination.body));
    assert.equal(pendingDestination.body.verificationStatus, 'PENDING');
    const pendingPayee = {
      beneficiaryId: payee.beneficiaryId,
      paymentDestinationId: pendingDestination.body.id,
    };
    const q = await newQuote(alice, pendingPayee, 1500);
    const over = await submit(alice, 'offramp', { ...body(q.quoteId), ...pendingPayee });
    assertFieldError(over, 422, 'amount', /TRANSACTION AMOUNT limit \(destination PENDING/);
    // An expired quote (its expiry moved into the past, rather than waiting two minutes).
    const stale = await newQuote(alice, payee, 5);
    const tenant = { environment: 'sandbox' as const, associationId: alice.tenant.associationId };
    await updateIf(
      quoteKeys.quote(tenant, stale.quoteId),
      { set: { expiry: new Date(Date.now() - 1000).toISOString() } },
      exists,
    );
    assertFieldError(await submit(alice, 'offramp', body(stale.quoteId)), 422, 'quoteId', /expired/);
  });
});
