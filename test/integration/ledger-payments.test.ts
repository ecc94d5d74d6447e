// Payments on the ledger (lib/ledger/payments.ts) against a ledger of this test's own and the stack's
// DynamoDB Local: P2P payments, trustlines opened for custodial destinations in the same transaction,
// swaps along the ledger's pools, multi-leg payments that land or fail as one, and the limits that keep a
// payment inside one transaction. The genesis holds the stack's funding and channel accounts, the pools
// and every wallet with the trustlines and balances its test needs, so each test reads exact balances.
// lib/ledger is imported only after the environment points at the ledger: configuration is read once.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Keypair } from '@stellar/stellar-sdk';
import BigNumber from 'bignumber.js';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { resetConfig } from '../../lib/config.ts';
import type { AccountKeys } from '../../lib/ledger/custody.ts';
import type { PaymentLeg } from '../../lib/ledger/payments.ts';
import { type LocalLedger, startLocalLedger } from '../../local/ledger/index.ts';
import { channelGenesis } from '../support/channels.ts';
import { type Json, stroops } from '../support/local-ledger.ts';

type Custody = typeof import('../../lib/ledger/custody.ts');
type Payments = typeof import('../../lib/ledger/payments.ts');
type Reads = typeof import('../../lib/ledger/reads.ts');
type Errors = typeof import('../../lib/ledger/errors.ts');
type Submissions = typeof import('../../lib/ledger/submissions.ts');

const FAST = { pauseMs: 50 };
const SLIPPAGE = '0.01';

/** The assets of the payment at the limits: each of its wallets holds one and receives others. */
const CROWD_ASSETS = ['LIMA', 'LIMB', 'LIMC', 'LIMD'] as const;
const CROWD = 18;
type Code = 'USDC' | 'EURC' | 'NOPL' | (typeof CROWD_ASSETS)[number];
/** The one pool, USDC/EURC: NOPL has none, so nothing converts into or out of it. */
const POOL = { USDC: '1080000', EURC: '1000000' };

/**
 * Each wallet's trustlines at genesis and what they hold; its XLM is exactly its reserve
 * (1 + 0.5 per trustline), as the wallets activateAccount opens.
 */
const WALLETS = {
  alice: { USDC: '100' },
  bob: { USDC: '0' },
  carol: {},
  dave: { USDC: '50' },
  erin: { USDC: '20', EURC: '0' },
  frank: { USDC: '0', EURC: '10' },
  grace: { USDC: '10' },
  henry: { NOPL: '10' },
  ivan: { USDC: '10' },
  judy: { USDC: '1' },
  ken: { USDC: '0' },
  liz: {},
  mallory: { USDC: '10' },
  nina: { USDC: '0' },
  oscar: { USDC: '10', EURC: '0' },
  whale: { USDC: '100000', EURC: '0' },
} satisfies Record<string, Partial<Record<Code, string>>>;
type Name = keyof typeof WALLETS;

const reserveOf = (lines: number) => (1 + lines / 2).toFixed(1);

describe('ledger payments', () => {
  let ledger: LocalLedger;
  let custody: Custody;
  let payments: Payments;
  let reads: Reads;
  let errors: Errors;
  let submissions: Submissions;
  let funding: string;
  const wallets = {} as Record<Name, AccountKeys>;
  const crowd: AccountKeys[] = [];
  const heldBy = (i: number) => CROWD_ASSETS[i % CROWD_ASSETS.length] as Code;
  const issuers = {} as Record<Code, string>;
  const asset = (code: Code) => ({ code, issuer: issuers[code] });

  const horizon = async (path: string): Promise<Json> => (await fetch(`${ledger.url}${path}`)).json();
  /** What an account holds, in stroops, by asset code (XLM for the native balance). */
  const holdings = async (name: Name | AccountKeys): Promise<Record<string, bigint>> => {
    const account = typeof name === 'string' ? wallets[name] : name;
    const { balances } = await horizon(`/accounts/${account.publicKey}`);
    return Object.fromEntries(
      balances.map((line: Json) => [line.asset_code ?? 'XLM', stroops(line.balance)]),
    );
  };
  const operationsOf = async (hash: string | null): Promise<Json[]> =>
    (await horizon(`/transactions/${hash}/operations?limit=200`))._embedded.records;
  const latestLedger = async () => (await horizon('/')).history_latest_ledger as number;

  /** A leg from one wallet to another, the destination known as custodial. */
  const leg = (from: Name, to: Name, sendAsset: Code, amount: string, receiveAsset?: Code): PaymentLeg => ({
    from: wallets[from],
    to: wallets[to].publicKey,
    custodialDestination: wallets[to],
    sendAsset: asset(sendAsset),
    amount,
    ...(receiveAsset ? { receiveAsset: asset(receiveAsset) } : {}),
  });
  const pay = (legs: PaymentLeg[], extra: { intentId?: string; memo?: string } = {}) =>
    payments.executePayment({
      environment: 'sandbox',
      intentId: `test-payment:${randomUUID()}`,
      legs,
      slippage: SLIPPAGE,
      ...FAST,
      ...extra,
    });
  /**
   * As the ledger-submissions worker runs a payment: asked again (a re-queued message) while it is
   * pending, as when trustline openings wait for a free channel.
   */
  const settledPay = async (legs: PaymentLeg[], extra: { intentId?: string; memo?: string } = {}) => {
    const intentId = extra.intentId ?? `test-payment:${randomUUID()}`;
    for (let asked = 1; ; asked++) {
      const outcome = await pay(legs, { ...extra, intentId });
      if (outcome.status !== 'pending' || asked === 20) return outcome;
    }
  };
  /** The transaction that opened `name`'s trustline for `code`: its opening intent's. */
  const openingOf = async (name: Name | AccountKeys, code: Code) => {
    const account = typeof name === 'string' ? wallets[name] : name;
    const { Asset } = await import('@stellar/stellar-sdk');
    const intentId = payments.trustlineIntentId(account.publicKey, new Asset(code, issuers[code]));
    const opening = await submissions.findSubmission('sandbox', intentId);
    assert.equal(opening?.status, 'succeeded', `${code} trustline of ${account.publicKey}`);
    return opening?.hash ?? null;
  };

  beforeAll(async () => {
    resetConfig();
    custody = await import('../../lib/ledger/custody.ts');
    const platform = await import('../../lib/ledger/platform-accounts.ts');
    funding = (await platform.ensurePlatformAccount('sandbox', 'funding')).publicKey;
    for (const code of ['USDC', 'EURC', 'NOPL', ...CROWD_ASSETS] as const)
      issuers[code] = Keypair.random().publicKey();
    for (const name of Object.keys(WALLETS) as Name[])
      wallets[name] = await custody.newAccountKeys('sandbox');
    for (let i = 0; i < CROWD; i++) crowd.push(await custody.newAccountKeys('sandbox'));
    ledger = await startLocalLedger({
      port: 0,
      networkPassphrase: `Ledger payments test ; ${randomUUID()}`,
      genesis: {
        accounts: [
          { publicKey: funding, nativeBalance: '100000' },
          ...(await channelGenesis()),
          ...Object.values(issuers).map((publicKey) => ({ publicKey, nativeBalance: '100' })),
          ...Object.entries(WALLETS).map(([name, lines]) => ({
            publicKey: wallets[name as Name].publicKey,
            nativeBalance: reserveOf(Object.keys(lines).length),
            trustlines: Object.entries(lines).map(([code, balance]) => ({
              asset: asset(code as Code),
              balance,
            })),
          })),
          ...crowd.map(({ publicKey }, i) => ({
            publicKey,
            nativeBalance: reserveOf(1),
            trustlines: [{ asset: asset(heldBy(i)), balance: '100' }],
          })),
        ],
        pools: [{ assetA: asset('USDC'), assetB: asset('EURC'), reserveA: POOL.USDC, reserveB: POOL.EURC }],
      },
    });
    process.env.HORIZON_URL_SANDBOX = ledger.url;
    process.env.NETWORK_PASSPHRASE_SANDBOX = ledger.networkPassphrase;
    process.env.LEDGER_TIMEOUT_MS = '1000';
    resetConfig();
    payments = await import('../../lib/ledger/payments.ts');
    reads = await import('../../lib/ledger/reads.ts');
    errors = await import('../../lib/ledger/errors.ts');
    submissions = await import('../../lib/ledger/submissions.ts');
  });

  afterAll(async () => {
    await ledger?.stop();
  });

  it('pays between two custodial wallets: one payment, signed by the channel and the payer only', async () => {
    const outcome = await pay([leg('alice', 'bob', 'USDC', '12.5')], { memo: 'invoice 42' });
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));

    assert.deepEqual(await holdings('alice'), { USDC: stroops('87.5'), XLM: stroops('1.5') });
    assert.deepEqual(await holdings('bob'), { USDC: stroops('12.5'), XLM: stroops('1.5') });
    const landed = await horizon(`/transactions/${outcome.hash}`);
    assert.equal(landed.fee_account, funding);
    assert.equal(landed.memo, 'invoice 42');
    assert.equal(landed.inner_transaction.signatures.length, 2);
    const [payment, ...more] = await operationsOf(outcome.hash);
    assert.deepEqual(more, []);
    assert.equal(payment.type, 'payment');
    assert.equal(payment.source_account, wallets.alice.publicKey);
  });

  it('opens the trustline a custodial destination lacks first, its reserve topped up by funding', async () => {
    const outcome = await pay([leg('alice', 'carol', 'USDC', '7')]);
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));

    assert.deepEqual(await holdings('carol'), { USDC: stroops('7'), XLM: stroops('1.5') });
    const opening = await operationsOf(await openingOf('carol', 'USDC'));
    assert.deepEqual(
      opening.map((op) => [op.type, op.source_account]),
      [
        ['payment', funding],
        ['change_trust', wallets.carol.publicKey],
      ],
    );
    assert.equal(opening[0].amount, '0.5000000');
    assert.deepEqual(
      (await operationsOf(outcome.hash)).map((op) => [op.type, op.source_account]),
      [['payment', wallets.alice.publicKey]],
    );
  });

  it('swaps into the wallet itself, opening the trustline it receives into first', async () => {
    const [quote] = await reads.strictSendPaths('sandbox', asset('USDC'), '20', [asset('EURC')]);
    assert.ok(quote);
    const outcome = await pay([leg('dave', 'dave', 'USDC', '20', 'EURC')]);
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));

    const [received, ...more] = await payments.pathPaymentReceipts('sandbox', outcome.hash ?? '');
    assert.deepEqual(more, []);
    assert.equal(received, quote.destinationAmount, 'the pools did not move between the quote and the swap');
    assert.deepEqual(
      (await operationsOf(await openingOf('dave', 'EURC'))).map((op) => op.type),
      ['payment', 'change_trust'],
    );
    const operations = await operationsOf(outcome.hash);
    assert.deepEqual(
      operations.map((op) => op.type),
      ['path_payment_strict_send'],
    );
    // destMin: the quote less 1 %, rounded down to a stroop.
    const destMin = (stroops(quote.destinationAmount) * 99n) / 100n;
    assert.equal(stroops(operations[0].destination_min), destMin);
    assert.ok(stroops(received ?? '') >= destMin);
    assert.deepEqual(await holdings('dave'), {
      USDC: stroops('30'),
      EURC: stroops(received ?? ''),
      XLM: stroops('2'),
    });
  });

  it('settles a multi-leg payment in one transaction: payments and a swap, after the trustline it needs', async () => {
    const outcome = await pay([
      leg('erin', 'frank', 'USDC', '3'),
      leg('frank', 'grace', 'EURC', '1.5'),
      leg('grace', 'erin', 'USDC', '4', 'EURC'),
    ]);
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));

    const [received, ...more] = await payments.pathPaymentReceipts('sandbox', outcome.hash ?? '');
    assert.deepEqual(more, []);
    assert.deepEqual(await holdings('erin'), {
      USDC: stroops('17'),
      EURC: stroops(received ?? ''),
      XLM: stroops('2'),
    });
    assert.deepEqual(await holdings('frank'), {
      USDC: stroops('3'),
      EURC: stroops('8.5'),
      XLM: stroops('2'),
    });
    assert.deepEqual(await holdings('grace'), {
      USDC: stroops('6'),
      EURC: stroops('1.5'),
      XLM: stroops('2'),
    });
    assert.deepEqual(
      (await operationsOf(await openingOf('grace', 'EURC'))).map((op) => [op.type, op.source_account]),
      [
        ['payment', funding],
        ['change_trust', wallets.grace.publicKey],
      ],
    );
    assert.deepEqual(
      (await operationsOf(outcome.hash)).map((op) => [op.type, op.source_account]),
      [
        ['payment', wallets.erin.publicKey],
        ['payment', wallets.frank.publicKey],
        ['path_payment_strict_send', wallets.grace.publicKey],
      ],
    );
  });

  it('fails a multi-leg payment as a whole when one leg overdraws: no balance moves', async () => {
    const names = ['ivan', 'judy', 'ken', 'liz'] as const;
    const before = await Promise.all(names.map(holdings));
    const outcome = await pay([
      leg('ivan', 'judy', 'USDC', '5'),
      leg('judy', 'ken', 'USDC', '100'),
      leg('ivan', 'liz', 'USDC', '1'),
    ]);
    assert.equal(outcome.status, 'failed', JSON.stringify(outcome));
    assert.equal(outcome.errorCode, 'LEDGER_OP_UNDERFUNDED');

    assert.equal((await horizon(`/transactions/${outcome.hash}`)).successful, false);
    assert.deepEqual(await Promise.all(names.slice(0, 3).map(holdings)), before.slice(0, 3));
    // The trustline the payment needed was opened before it (its own intent) and stays: no USDC moved.
    assert.deepEqual(before[3], { XLM: stroops('1') });
    assert.deepEqual(await holdings('liz'), { USDC: 0n, XLM: stroops('1.5') });
  });

  it('fails a swap without a path before submitting anything', async () => {
    const before = await holdings('henry');
    const latest = await latestLedger();
    const outcome = await pay([leg('henry', 'bob', 'NOPL', '5', 'USDC')]);
    assert.deepEqual(
      { ...outcome, intentId: null },
      {
        status: 'failed',
        intentId: null,
        hash: null,
        errorCode: 'LEDGER_NO_PATH',
        failureReason: 'No conversion path between the assets with enough liquidity.',
        attempt: 1,
      },
    );
    assert.equal(await latestLedger(), latest);
    assert.deepEqual(await holdings('henry'), before);
  });

  it('waits for a wallet the ledger does not show (a lagging read), never failing on it, submitting nothing', async () => {
    // The worker runs a payment only once its wallets are recorded open: a 404 is a read behind the ledger.
    const absent = await custody.newAccountKeys('sandbox');
    const latest = await latestLedger();
    const from = await pay([{ ...leg('alice', 'bob', 'USDC', '1'), from: absent }]);
    assert.equal(from.status, 'pending', JSON.stringify(from));
    assert.match(from.failureReason, /source wallet .* is not visible on the ledger yet/);
    const into = await pay([
      { ...leg('alice', 'bob', 'USDC', '1'), to: absent.publicKey, custodialDestination: absent },
    ]);
    assert.equal(into.status, 'pending', JSON.stringify(into));
    assert.match(into.failureReason, /destination wallet .* is not visible on the ledger yet/);
    assert.equal(await latestLedger(), latest);
  });

  it('puts one transaction on the ledger for one intent, however often it is asked', async () => {
    const intentId = `test-payment:${randomUUID()}`;
    const first = await pay([leg('mallory', 'nina', 'USDC', '2')], { intentId });
    assert.equal(first.status, 'succeeded', JSON.stringify(first));
    const latest = await latestLedger();

    assert.deepEqual(await pay([leg('mallory', 'nina', 'USDC', '2')], { intentId }), first);
    assert.equal(await latestLedger(), latest);
    assert.deepEqual(await holdings('nina'), { USDC: stroops('2'), XLM: stroops('1.5') });
    const received = (await horizon(`/accounts/${wallets.nina.publicKey}/payments?limit=200`))._embedded
      .records;
    assert.deepEqual(
      received.map((p: Json) => p.transaction_hash),
      [first.hash],
    );
  });

  it('fits the most a payment may hold in one transaction: 40 legs into 18 wallets, after 40 trustline openings', async () => {
    // Round r pays every wallet the asset r places after the one it holds, from the wallet among the
    // first four that holds it: 40 trustlines to open over all 18 wallets, each topped up, each by an
    // intent of its own (more than there are channels: the payment waits, as a re-queued message does).
    const legs: PaymentLeg[] = [];
    const expected = crowd.map(
      (_, i): Record<string, bigint> => ({ [heldBy(i)]: stroops('100'), XLM: stroops('1.5') }),
    );
    const move = (wallet: number, code: string, delta: bigint) => {
      const held = expected[wallet] ?? assert.fail(`no wallet ${wallet}`);
      held[code] = (held[code] ?? 0n) + delta;
    };
    for (let round = 1; legs.length < payments.MAX_PAYMENT_LEGS; round++) {
      for (let to = 0; to < CROWD && legs.length < payments.MAX_PAYMENT_LEGS; to++) {
        const from = (to + round) % CROWD_ASSETS.length;
        const code = heldBy(from);
        const payee = crowd[to] ?? assert.fail(`no wallet ${to}`);
        legs.push({
          from: crowd[from] ?? assert.fail(`no wallet ${from}`),
          to: payee.publicKey,
          custodialDestination: payee,
          sendAsset: asset(code),
          amount: '1',
        });
        move(from, code, -stroops('1'));
        move(to, code, stroops('1'));
        move(to, 'XLM', stroops('0.5'));
      }
    }
    const outcome = await settledPay(legs);
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));

    const landed = await horizon(`/transactions/${outcome.hash}`);
    assert.equal(landed.operation_count, 40);
    // The channel and the four payers.
    assert.equal(landed.inner_transaction.signatures.length, 5);
    assert.deepEqual(await Promise.all(crowd.map(holdings)), expected);
  });

  it('refuses payments beyond one transaction’s limits, recording nothing', async () => {
    const refused = async (legs: PaymentLeg[], field: string, memo?: string) => {
      const intentId = `test-payment:${randomUUID()}`;
      await assert.rejects(
        pay(legs, { intentId, ...(memo !== undefined ? { memo } : {}) }),
        (error) => error instanceof errors.LedgerInputError && error.field === field,
      );
      assert.equal(await submissions.findSubmission('sandbox', intentId), undefined);
    };
    const one = leg('alice', 'bob', 'USDC', '1');
    assert.equal(payments.MAX_PAYMENT_LEGS, 40);
    assert.equal(payments.MAX_PAYMENT_WALLETS, 18);
    await refused(
      Array.from({ length: 41 }, () => one),
      'legs',
    );
    await refused([], 'legs');
    // 19 distinct payers (18 new + alice's destination bob): only input is checked, no key is opened.
    const strangers = Array.from({ length: 18 }, () => ({
      ...wallets.alice,
      publicKey: Keypair.random().publicKey(),
    }));
    await refused(
      strangers.map((from) => ({ ...one, from })),
      'legs',
    );
    await refused([one], 'memo', 'x'.repeat(29));
    await refused([one], 'memo', 'é'.repeat(15));
  });

  it('executes a swap no worse than the bound set at acceptance: once the price moved, the ledger refuses it', async () => {
    const { leastReceived } = await import('../../lib/ledger/amounts.ts');
    const [accepted] = await reads.strictSendPaths('sandbox', asset('USDC'), '10', [asset('EURC')]);
    assert.ok(accepted);
    const minReceive = leastReceived(accepted.destinationAmount, SLIPPAGE).toFixed();
    // While the swap waits (an outage, say), a whale sells 40,000 USDC into the pool: EURC gets dearer.
    const moved = await pay([leg('whale', 'whale', 'USDC', '40000', 'EURC')]);
    assert.equal(moved.status, 'succeeded', JSON.stringify(moved));
    const before = await holdings('oscar');

    const outcome = await pay([{ ...leg('oscar', 'oscar', 'USDC', '10', 'EURC'), minReceive }]);
    assert.equal(outcome.status, 'failed', JSON.stringify(outcome));
    assert.equal(outcome.errorCode, 'LEDGER_OP_UNDER_DEST_MIN');
    const [swap] = await operationsOf(outcome.hash);
    assert.equal(swap.destination_min, new BigNumber(minReceive).toFixed(7));
    assert.deepEqual(await holdings('oscar'), before);
  });
});
