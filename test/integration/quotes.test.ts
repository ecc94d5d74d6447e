// Quotes through the real local gateway, against the seed catalogue and the documented sandbox rates.
// Every expected figure is worked out by hand in the comments from the documented rates and fees:
//   sandbox rates (per USDC): ZAR 18.50, KES 129.00, NGN 1550.00, GHS 15.20, XAF 605.00
//   production stand-in provider: ZAR 18.42
//   connector fees: za-bank-offramp 0.5 % + 0.50 USDC · ke-momo-offramp 1 % + 0.25 USDC ·
//   ng-bank-offramp 0.75 % · cm-cash-offramp 1.5 % + 1.00 USDC · ke-momo-onramp 1 % · gh-momo-onramp 1.5 % + 1.00 GHS
//   fees round half-up, received amounts round down, to ISO 4217 minor units (XAF: 0) or the registry's
//   decimals for ledger assets (USDC: 2).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { beforeAll, describe, it } from 'vitest';
import { findQuote, isQuoteExpired } from '../../lib/quotes/repo.ts';
import {
  type ApiResponse,
  as,
  assertAnsweredAsMissing,
  assertFieldError,
  type Caller,
  newCaller,
} from '../support/api.ts';

const run = promisify(execFile);
const admin = async (...args: string[]) =>
  JSON.parse((await run(process.execPath, ['scripts/admin.ts', ...args], { env: process.env })).stdout);

const quote = (caller: Caller, body: unknown, query = '') =>
  as(caller, `/quotes${query}`, { method: 'POST', body });

const QUOTE_MEMBERS = [
  'beneficiaryId',
  'connectorId',
  'createdAt',
  'expiresAt',
  'fee',
  'feeCurrency',
  'paymentDestinationId',
  'quoteId',
  'rate',
  'receiveAmount',
  'receiveCurrency',
  'sendAmount',
  'sendCurrency',
  'total',
  'transactionType',
  'type',
];

function assertQuote(response: ApiResponse, expected: Record<string, unknown>) {
  assert.equal(response.status, 201, JSON.stringify(response.body));
  assert.deepEqual(Object.keys(response.body).sort(), QUOTE_MEMBERS);
  for (const [member, value] of Object.entries(expected))
    assert.deepEqual(response.body[member], value, `${member}: ${JSON.stringify(response.body)}`);
}

async function newBeneficiary(caller: Caller, body: unknown): Promise<string> {
  const created = await as(caller, '/beneficiaries', { method: 'POST', body });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.id;
}

async function newDestination(caller: Caller, beneficiaryId: string, body: unknown): Promise<string> {
  const created = await as(caller, `/beneficiaries/${beneficiaryId}/payment-destinations`, {
    method: 'POST',
    body,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.id;
}

const zaBank = {
  method: 'BANK',
  countryIsoCode2: 'ZA',
  currencyIsoCode3: 'ZAR',
  accountNumber: '123456789',
  bankCode: '250655',
  accountHolderName: 'Thandi Nkosi',
};
const keMomo = {
  method: 'MOBILE_MONEY',
  countryIsoCode2: 'KE',
  currencyIsoCode3: 'KES',
  mobileNumber: '+254712345678',
  provider: 'MPESA',
};

describe('quotes', () => {
  let alice: Caller;
  let bob: Caller;
  let carol: Caller;
  /** alice's individual beneficiary with a ZA bank account and a KE M-Pesa wallet. */
  let thandi: { id: string; zaBank: string; keMomo: string };
  /** alice's business beneficiary with a ZA bank account. */
  let acme: { id: string; zaBank: string };
  /** carol's (an individual association's) individual beneficiary with a KE M-Pesa wallet. */
  let wanjiru: { id: string; keMomo: string };

  beforeAll(async () => {
    [alice, bob, carol] = await Promise.all([newCaller(), newCaller(), newCaller({ kind: 'individual' })]);
    const thandiId = await newBeneficiary(alice, { individual: { firstName: 'Thandi', lastName: 'Nkosi' } });
    thandi = {
      id: thandiId,
      zaBank: await newDestination(alice, thandiId, zaBank),
      keMomo: await newDestination(alice, thandiId, keMomo),
    };
    const acmeId = await newBeneficiary(alice, { business: { registeredName: 'Acme Trading' } });
    acme = {
      id: acmeId,
      zaBank: await newDestination(alice, acmeId, { ...zaBank, accountHolderName: 'Acme' }),
    };
    const wanjiruId = await newBeneficiary(carol, {
      individual: { firstName: 'Wanjiru', lastName: 'Kamau' },
    });
    wanjiru = { id: wanjiruId, keMomo: await newDestination(carol, wanjiruId, keMomo) };
  });

  describe('off-ramp pricing', () => {
    it('prices a bank payout for a beneficiary: fee on top, amount converted at the sandbox rate', async () => {
      // business association → individual beneficiary: B2C. 100 × 0.5 % + 0.50 = 1.00; 100 × 18.50 = 1850
      const response = await quote(alice, {
        amount: 100,
        connectorId: 'za-bank-offramp-usdc-zar',
        beneficiaryId: thandi.id,
        paymentDestinationId: thandi.zaBank,
      });
      assertQuote(response, {
        type: 'offramp',
        connectorId: 'za-bank-offramp-usdc-zar',
        transactionType: 'B2C',
        beneficiaryId: thandi.id,
        paymentDestinationId: thandi.zaBank,
        sendAmount: 100,
        sendCurrency: 'USDC',
        fee: 1,
        feeCurrency: 'USDC',
        total: 101,
        receiveAmount: 1850,
        receiveCurrency: 'ZAR',
        rate: 18.5,
      });
      assert.match(response.body.quoteId, /^[0-9a-f-]{36}$/);
      assert.equal(response.body.serviceCommission, undefined);
    });

    it('rounds the fee half-up and the payout down, each to its own minor units', async () => {
      // 123.45 × 1 % + 0.25 = 1.4845 → 1.48; total 124.93; 123.45 × 129 = 15925.05
      assertQuote(
        await quote(alice, {
          amount: 123.45,
          connectorId: 'ke-momo-offramp-usdc-kes',
          beneficiaryId: thandi.id,
          paymentDestinationId: thandi.keMomo,
        }),
        {
          transactionType: 'B2C',
          sendAmount: 123.45,
          fee: 1.48,
          total: 124.93,
          receiveAmount: 15925.05,
          rate: 129,
        },
      );
      // 50.50 × 1 % + 0.25 = 0.755 → 0.76 (half-up); total 51.26; 50.50 × 129 = 6514.5
      assertQuote(
        await quote(alice, { amount: 50.5, connectorId: 'ke-momo-offramp-usdc-kes', transactionType: 'b2c' }),
        { transactionType: 'B2C', beneficiaryId: null, fee: 0.76, total: 51.26, receiveAmount: 6514.5 },
      );
      // Cash pickup in XAF (no minor units): 10.33 × 605 = 6249.65 → 6249; fee 0.15495 + 1.00 → 1.15; total 11.48
      assertQuote(
        await quote(alice, {
          amount: 10.33,
          connectorId: 'cm-cash-offramp-usdc-xaf',
          transactionType: 'B2C',
        }),
        {
          sendAmount: 10.33,
          fee: 1.15,
          total: 11.48,
          receiveAmount: 6249,
          receiveCurrency: 'XAF',
          rate: 605,
        },
      );
      // 10.01 × 0.75 % = 0.075075 → 0.08; total 10.09; 10.01 × 1550 = 15515.5
      assertQuote(
        await quote(alice, {
          amount: 10.01,
          connectorId: 'ng-bank-offramp-usdc-ngn',
          transactionType: 'C2C',
        }),
        { transactionType: 'C2C', fee: 0.08, total: 10.09, receiveAmount: 15515.5, receiveCurrency: 'NGN' },
      );
    });

    it('derives the transaction type from the association and the beneficiary', async () => {
      // individual association → individual beneficiary: C2C. 10 × 1 % + 0.25 = 0.35; 10 × 129 = 1290
      assertQuote(
        await quote(carol, {
          amount: 10,
          connectorId: 'ke-momo-offramp-usdc-kes',
          beneficiaryId: wanjiru.id,
          paymentDestinationId: wanjiru.keMomo,
        }),
        { transactionType: 'C2C', fee: 0.35, total: 10.35, receiveAmount: 1290 },
      );
      // business → business: B2B, priced with the connector's fee (200 × 0.5 % + 0.50 = 1.50)
      assertQuote(
        await quote(alice, {
          amount: 200,
          connectorId: 'za-bank-offramp-usdc-zar',
          beneficiaryId: acme.id,
          paymentDestinationId: acme.zaBank,
        }),
        { transactionType: 'B2B', fee: 1.5, total: 201.5, receiveAmount: 3700 },
      );
    });

    it('prices production quotes with the production rate source', async () => {
      const production = await newCaller({ environment: 'production' });
      // stand-in provider: 100 × 18.42 = 1842
      assertQuote(
        await quote(production, {
          amount: 100,
          connectorId: 'za-bank-offramp-usdc-zar',
          transactionType: 'B2C',
        }),
        { fee: 1, total: 101, receiveAmount: 1842, rate: 18.42 },
      );
    });
  });

  describe('on-ramp pricing', () => {
    it('takes the fee out of what the counterparty pays and converts the rest into the wallet asset', async () => {
      // the individual counterparty pays the business association: C2B.
      // 1000 KES, fee 1 % = 10.00, total = 1000, (1000 − 10) ÷ 129 = 7.6744… → 7.67 USDC
      assertQuote(
        await quote(
          alice,
          {
            amount: 1000,
            connectorId: 'ke-momo-onramp-kes-usdc',
            beneficiaryId: thandi.id,
            paymentDestinationId: thandi.keMomo,
          },
          '?type=onramp',
        ),
        {
          type: 'onramp',
          transactionType: 'C2B',
          beneficiaryId: thandi.id,
          paymentDestinationId: thandi.keMomo,
          sendAmount: 1000,
          sendCurrency: 'KES',
          fee: 10,
          feeCurrency: 'KES',
          total: 1000,
          receiveAmount: 7.67,
          receiveCurrency: 'USDC',
          rate: 129,
        },
      );
      // 500 GHS: fee 7.50 + 1.00 = 8.50; 491.50 ÷ 15.20 = 32.3355… → 32.33
      assertQuote(
        await quote(
          alice,
          { amount: 500, connectorId: 'gh-momo-onramp-ghs-usdc', transactionType: 'C2B' },
          '?type=ONRAMP',
        ),
        { type: 'onramp', sendAmount: 500, fee: 8.5, total: 500, receiveAmount: 32.33, rate: 15.2 },
      );
      // 100.01 GHS: fee 1.50015 + 1.00 = 2.50015 → 2.50; 97.51 ÷ 15.20 = 6.4151… → 6.41
      assertQuote(
        await quote(
          alice,
          { amount: 100.01, connectorId: 'gh-momo-onramp-ghs-usdc', transactionType: 'C2C' },
          '?type=onramp',
        ),
        { fee: 2.5, total: 100.01, receiveAmount: 6.41 },
      );
    });

    it('refuses a derived on-ramp type the connector does not carry (individual pays individual on a C2B/B2B corridor)', async () => {
      const response = await quote(
        carol,
        { amount: 1000, connectorId: 'ke-momo-onramp-kes-usdc', beneficiaryId: wanjiru.id },
        '?type=onramp',
      );
      assertFieldError(response, 422, 'beneficiaryId', /C2C/);
    });

    it('prices the connector’s minimum amount', async () => {
      // 15 GHS is the minimum: fee 15 × 1.5 % + 1.00 = 1.225 → 1.23 (half-up); 13.77 ÷ 15.20 = 0.9059… → 0.90
      const gh = { connectorId: 'gh-momo-onramp-ghs-usdc', transactionType: 'C2B' };
      assertQuote(await quote(alice, { ...gh, amount: 15 }, '?type=onramp'), {
        sendAmount: 15,
        fee: 1.23,
        total: 15,
        receiveAmount: 0.9,
      });
      // It is the minimum: one minor unit less is refused.
      assertFieldError(
        await quote(alice, { ...gh, amount: 14.99 }, '?type=onramp'),
        422,
        'amount',
        /at least 15/,
      );
    });
  });

  describe('business fee rows', () => {
    it('uses the exact row (zero included) over the connector fee, only for its association, connector and type', async () => {
      const id = alice.tenant.associationId;
      const za = ['--environment', 'sandbox', '--connector', 'za-bank-offramp-usdc-zar'];
      const set = await admin(
        'fees',
        'set',
        '--association',
        id,
        ...za,
        '--transaction-type',
        'B2C',
        '--percentage',
        '0.25',
      );
      assert.deepEqual(
        {
          percentage: set.percentage,
          fixed: set.fixed,
          transactionType: set.transactionType,
          currency: set.currency,
        },
        { percentage: '0.25', fixed: '0', transactionType: 'B2C', currency: 'USDC' },
      );
      const za100 = { amount: 100, connectorId: 'za-bank-offramp-usdc-zar' };
      // The row: 100 × 0.25 % = 0.25, for a derived and for an exploratory B2C quote alike.
      assertQuote(await quote(alice, { ...za100, beneficiaryId: thandi.id }), {
        fee: 0.25,
        total: 100.25,
        receiveAmount: 1850,
      });
      assertQuote(await quote(alice, { ...za100, transactionType: 'b2c' }), { fee: 0.25, total: 100.25 });
      // Another transaction type (B2B), another association (bob): the connector's fee, 1.00.
      assertQuote(await quote(alice, { ...za100, transactionType: 'B2B' }), { fee: 1, total: 101 });
      assertQuote(await quote(bob, { ...za100, transactionType: 'B2C' }), { fee: 1, total: 101 });
      // Another connector: its own fee (123.45 → 1.48).
      assertQuote(
        await quote(alice, {
          amount: 123.45,
          connectorId: 'ke-momo-offramp-usdc-kes',
          transactionType: 'B2C',
        }),
        {
          fee: 1.48,
        },
      );

      // A zero row wins too: a free corridor.
      const ke = [
        '--environment',
        'sandbox',
        '--connector',
        'KE-MOMO-OFFRAMP-USDC-KES',
        '--transaction-type',
        'b_2_c',
      ];
      await admin('fees', 'set', '--association', id, ...ke, '--percentage', '0', '--fixed', '0');
      assertQuote(
        await quote(alice, {
          amount: 123.45,
          connectorId: 'ke-momo-offramp-usdc-kes',
          beneficiaryId: thandi.id,
        }),
        { fee: 0, total: 123.45, receiveAmount: 15925.05 },
      );
      // Percentage and fixed: 200 × 0.5 % + 1 = 2.00.
      await admin(
        'fees',
        'set',
        '--association',
        id,
        ...za,
        '--transaction-type',
        'B2B',
        '--percentage',
        '0.5',
        '--fixed',
        '1',
      );
      assertQuote(
        await quote(alice, { amount: 200, connectorId: 'za-bank-offramp-usdc-zar', beneficiaryId: acme.id }),
        {
          transactionType: 'B2B',
          fee: 2,
          total: 202,
        },
      );

      const listed = await admin('fees', 'list', '--association', id, '--environment', 'sandbox');
      assert.deepEqual(
        listed
          .map(
            (r: { connectorId: string; transactionType: string }) => `${r.connectorId} ${r.transactionType}`,
          )
          .sort(),
        ['ke-momo-offramp-usdc-kes B2C', 'za-bank-offramp-usdc-zar B2B', 'za-bank-offramp-usdc-zar B2C'],
      );

      // Cleared: back to the connector's fee.
      assert.equal(
        (await admin('fees', 'clear', '--association', id, ...za, '--transaction-type', 'B2C')).cleared,
        true,
      );
      assertQuote(await quote(alice, { ...za100, transactionType: 'B2C' }), { fee: 1, total: 101 });
      assert.equal(
        (await admin('fees', 'clear', '--association', id, ...za, '--transaction-type', 'B2C')).cleared,
        false,
      );
    });

    it('refuses rows the CLI cannot apply', async () => {
      const id = bob.tenant.associationId;
      const base = ['fees', 'set', '--association', id, '--environment', 'sandbox'];
      await assert.rejects(
        admin(
          ...base,
          '--connector',
          'ke-momo-onramp-kes-usdc',
          '--transaction-type',
          'C2B',
          '--percentage',
          '1',
        ),
        /off-ramp connectors only/,
      );
      await assert.rejects(
        admin(
          ...base,
          '--connector',
          'ke-momo-offramp-usdc-kes',
          '--transaction-type',
          'C2B',
          '--percentage',
          '1',
        ),
        /does not list transaction type/,
      );
      await assert.rejects(
        admin(...base, '--connector', 'zz-none', '--transaction-type', 'C2C', '--percentage', '1'),
        /No connector zz-none/,
      );
      await assert.rejects(
        admin(
          ...base,
          '--connector',
          'ke-momo-offramp-usdc-kes',
          '--transaction-type',
          'C2C',
          '--percentage',
          '101',
        ),
        /at most 100/,
      );
      await assert.rejects(
        admin(
          ...base,
          '--connector',
          'ke-momo-offramp-usdc-kes',
          '--transaction-type',
          'C2C',
          '--fixed',
          '0.001',
        ),
        /at most 2 decimal places/,
      );
      await assert.rejects(
        admin(...base, '--connector', 'ke-momo-offramp-usdc-kes', '--transaction-type', 'C2C', '--fixed=-1'),
        /non-negative/,
      );
      await assert.rejects(
        admin(...base, '--connector', 'ke-momo-offramp-usdc-kes', '--transaction-type', 'C2C'),
        /--percentage/,
      );
      await assert.rejects(
        admin(
          'fees',
          'set',
          '--association',
          randomUUID(),
          '--environment',
          'sandbox',
          '--connector',
          'ke-momo-offramp-usdc-kes',
          '--transaction-type',
          'C2C',
          '--fixed',
          '1',
        ),
        /No association/,
      );
      // bob exists in sandbox, not in production.
      await assert.rejects(
        admin(
          'fees',
          'set',
          '--association',
          id,
          '--environment',
          'production',
          '--connector',
          'ke-momo-offramp-usdc-kes',
          '--transaction-type',
          'C2C',
          '--fixed',
          '1',
        ),
        /No association/,
      );
    });
  });

  describe('refusals', () => {
    const ke = { amount: 10, connectorId: 'ke-momo-offramp-usdc-kes' };

    it('needs exactly one of beneficiaryId and transactionType (422 on both fields)', async () => {
      for (const body of [
        { ...ke },
        { ...ke, beneficiaryId: thandi.id, transactionType: 'B2C' },
        { ...ke, beneficiaryId: null },
      ]) {
        const response = await quote(alice, body);
        assertFieldError(response, 422, 'beneficiaryId');
        assertFieldError(response, 422, 'transactionType');
      }
      assertFieldError(
        await quote(alice, { ...ke, transactionType: 'B2C', paymentDestinationId: thandi.keMomo }),
        422,
        'paymentDestinationId',
        /requires beneficiaryId/,
      );
    });

    it('refuses a transaction type the connector does not support, naming it', async () => {
      const exploratory = await quote(alice, { ...ke, transactionType: 'c2b' });
      assertFieldError(exploratory, 422, 'transactionType', /C2B/);
      // Derived: business → business is B2B, which the M-Pesa payout does not carry.
      const derived = await quote(alice, { ...ke, beneficiaryId: acme.id });
      assertFieldError(derived, 422, 'beneficiaryId', /B2B/);
      // Listed but OFFLINE.
      assertFieldError(
        await quote(alice, { amount: 10, connectorId: 'ng-bank-offramp-usdc-ngn', transactionType: 'B2B' }),
        422,
        'transactionType',
        /OFFLINE/,
      );
    });

    it('refuses connectors of the other direction, inactive ones and bespoke ones, naming connectorId', async () => {
      assertFieldError(
        await quote(alice, { amount: 1000, connectorId: 'ke-momo-onramp-kes-usdc', transactionType: 'C2B' }),
        422,
        'connectorId',
        /ON_RAMP/,
      );
      assertFieldError(
        await quote(alice, { ...ke, transactionType: 'B2C' }, '?type=onramp'),
        422,
        'connectorId',
        /OFF_RAMP/,
      );
      assertFieldError(
        await quote(alice, { amount: 10, connectorId: 'ug-momo-offramp-usdc-ugx', transactionType: 'B2C' }),
        422,
        'connectorId',
        /not active/,
      );
      assertFieldError(
        await quote(
          alice,
          { amount: 500, connectorId: 'za-bank-onramp-zar-usdc', transactionType: 'C2B' },
          '?type=onramp',
        ),
        422,
        'connectorId',
        /BESPOKE/,
      );
    });

    it('refuses amounts outside the connector’s TRANSACTION limits or finer than the currency', async () => {
      assertFieldError(
        await quote(alice, { ...ke, amount: 0.99, transactionType: 'B2C' }),
        422,
        'amount',
        /at least 1 USDC/,
      );
      assertFieldError(
        await quote(alice, { ...ke, amount: 1500.01, transactionType: 'B2C' }),
        422,
        'amount',
        /at most 1500 USDC/,
      );
      assert.equal((await quote(alice, { ...ke, amount: 1500, transactionType: 'B2C' })).status, 201);
      assert.equal((await quote(alice, { ...ke, amount: 1, transactionType: 'B2C' })).status, 201);
      assertFieldError(
        await quote(alice, { ...ke, amount: 10.001, transactionType: 'B2C' }),
        422,
        'amount',
        /2 decimal places/,
      );
      assertFieldError(
        await quote(
          alice,
          { amount: 99, connectorId: 'ke-momo-onramp-kes-usdc', transactionType: 'C2B' },
          '?type=onramp',
        ),
        422,
        'amount',
        /at least 100 KES/,
      );
    });

    it('refuses a destination that does not fit the connector', async () => {
      assertFieldError(
        await quote(alice, { ...ke, beneficiaryId: thandi.id, paymentDestinationId: thandi.zaBank }),
        422,
        'paymentDestinationId',
        /BANK destination/,
      );
      assertFieldError(
        await quote(alice, {
          amount: 20,
          connectorId: 'cm-cash-offramp-usdc-xaf',
          beneficiaryId: thandi.id,
          paymentDestinationId: thandi.keMomo,
        }),
        422,
        'paymentDestinationId',
        /cash/,
      );
    });

    it('answers unknown connectors, beneficiaries and destinations with 404', async () => {
      assert.equal(
        (await quote(alice, { amount: 10, connectorId: 'zz-nowhere', transactionType: 'C2C' })).status,
        404,
      );
      assert.equal((await quote(alice, { ...ke, beneficiaryId: randomUUID() })).status, 404);
      assert.equal(
        (await quote(alice, { ...ke, beneficiaryId: thandi.id, paymentDestinationId: randomUUID() })).status,
        404,
      );
      // A destination of another beneficiary of the same association.
      assert.equal(
        (
          await quote(alice, {
            amount: 10,
            connectorId: 'za-bank-offramp-usdc-zar',
            beneficiaryId: thandi.id,
            paymentDestinationId: acme.zaBank,
          })
        ).status,
        404,
      );
      // Another association's beneficiary and destination: exactly like missing ones.
      const theirs = await quote(bob, {
        ...ke,
        beneficiaryId: thandi.id,
        paymentDestinationId: thandi.keMomo,
      });
      const unknown = randomUUID();
      const missing = await quote(bob, {
        ...ke,
        beneficiaryId: unknown,
        paymentDestinationId: thandi.keMomo,
      });
      assertAnsweredAsMissing(theirs, thandi.id, missing, unknown);
    });

    it('refuses malformed requests with 400 naming the member', async () => {
      const cases: [unknown, string][] = [
        [{ connectorId: 'ke-momo-offramp-usdc-kes', transactionType: 'B2C' }, 'amount'],
        [{ ...ke, amount: 0, transactionType: 'B2C' }, 'amount'],
        [{ ...ke, amount: -5, transactionType: 'B2C' }, 'amount'],
        [{ ...ke, amount: '10', transactionType: 'B2C' }, 'amount'],
        [{ amount: 10, transactionType: 'B2C' }, 'connectorId'],
        [{ ...ke, connectorId: 'ke momo', transactionType: 'B2C' }, 'connectorId'],
        [{ ...ke, beneficiaryId: 'thandi' }, 'beneficiaryId'],
        [{ ...ke, transactionType: 'P2P' }, 'transactionType'],
        [{ ...ke, transactionType: 'B2C', paymentDestinationId: 'x' }, 'paymentDestinationId'],
        [{ ...ke, transactionType: 'B2C', serviceCommission: 1 }, 'serviceCommission'],
        [{ ...ke, transactionType: 'B2C', rate: 200 }, 'rate'],
      ];
      for (const [body, field] of cases) assertFieldError(await quote(alice, body), 400, field);
      for (const query of ['?type=bogus', '?type=offramp', '?type=']) {
        assertFieldError(await quote(alice, { ...ke, transactionType: 'B2C' }, query), 400, 'type');
      }
      assertFieldError(
        await quote(alice, { ...ke, transactionType: 'B2C' }, '?currency=KES'),
        400,
        'currency',
      );
      assertFieldError(await quote(alice, '{"amount":'), 400, 'body');
    });
  });

  describe('lifetime and storage', () => {
    it('expires 120 s after creation, is stored for its own association only, with the TTL attribute', async () => {
      const before = Date.now();
      // 10 × 0.75 % = 0.075 → 0.08 (half-up); total 10.08
      const response = await quote(alice, {
        amount: 10,
        connectorId: 'ng-bank-offramp-usdc-ngn',
        beneficiaryId: thandi.id,
      });
      assert.equal(response.status, 201);
      const createdAt = Date.parse(response.body.createdAt);
      assert.ok(createdAt >= before - 1000 && createdAt <= Date.now() + 1000);
      assert.equal(Date.parse(response.body.expiresAt) - createdAt, 120_000);

      const stored = await findQuote(alice.tenant, response.body.quoteId);
      assert.ok(stored);
      assert.equal(stored.quoteType, 'offramp');
      assert.equal(stored.total, '10.08');
      assert.equal(stored.fee, '0.08');
      assert.equal(stored.expiresAt, Math.ceil(Date.parse(response.body.expiresAt) / 1000));
      assert.equal(isQuoteExpired(stored, new Date(createdAt + 119_000)), false);
      assert.equal(isQuoteExpired(stored, new Date(createdAt + 120_000)), true);
      assert.equal(await findQuote(bob.tenant, response.body.quoteId), undefined);
      assert.equal(
        await findQuote({ ...alice.tenant, environment: 'production' }, response.body.quoteId),
        undefined,
      );
    });
  });
});
