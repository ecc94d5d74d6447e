// The ledger adapter against the real local ledger and the real DynamoDB Local of the test stack:
// account activation, payments, and crash-safe submission (never two ledger transactions for one intent).
// The ledger is started here (its own genesis and passphrase); lib/ledger is imported only after the
// environment points at it, since configuration is read once.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import {
  Account,
  Asset,
  type FeeBumpTransaction,
  Keypair,
  Operation,
  TransactionBuilder,
} from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { resetConfig } from '../../lib/config.ts';
import { platformLedgerAccount } from '../../lib/ledger/load-account.ts';
import type { BuildTransaction } from '../../lib/ledger/submit.ts';
import { startLocalLedger } from '../../local/ledger/index.ts';
import { secretFileName } from '../../local/secrets-manager.ts';
import { channelGenesis } from '../support/channels.ts';

type Ledger = Awaited<ReturnType<typeof startLocalLedger>>;
type Custody = typeof import('../../lib/ledger/custody.ts');
type Operations = typeof import('../../lib/ledger/operations.ts');
type Submit = typeof import('../../lib/ledger/submit.ts');
type Balances = typeof import('../../lib/ledger/balances.ts');
type Submissions = typeof import('../../lib/ledger/submissions.ts');
type PlatformAccounts = typeof import('../../lib/ledger/platform-accounts.ts');

const ASSET_CODE = 'ADPT';
const FAST = { pauseMs: 50 };
/** For the accounts a test sets up: while the whole suite runs, every channel may be busy for seconds. */
const PATIENT = { pauseMs: 100, maxRounds: 100 };

/** A server that accepts connections and never answers: a ledger that hangs. */
async function blackHole(): Promise<{ url: string; requests(): string[]; close(): void }> {
  const sockets: Socket[] = [];
  const requests: string[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('data', (data) => {
      const line = data.toString('latin1').split('\r\n')[0] ?? '';
      if (/^[A-Z]+ \//.test(line)) requests.push(line);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    /** The request lines received so far ("POST /transactions HTTP/1.1"). */
    requests: () => [...requests],
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/** The test stack's KEK if it configures one (its platform accounts are sealed under it), else our own. */
function ensureKek(): void {
  const dataDir = process.env.TEST_DATA_DIR;
  if (!dataDir)
    throw new Error('TEST_DATA_DIR is not set: run the tests with npm test (it starts the stack)');
  const secretsDir = join(dataDir, 'secrets');
  process.env.KEK_SECRET_ID_SANDBOX ??= `test/payments-gateway/ledger-adapter-kek-${randomUUID()}`;
  const file = join(secretsDir, secretFileName(process.env.KEK_SECRET_ID_SANDBOX));
  if (existsSync(file)) return;
  mkdirSync(secretsDir, { recursive: true });
  const ring = { current: 'k1', keys: [{ kid: 'k1', key: randomBytes(32).toString('base64') }] };
  writeFileSync(file, JSON.stringify(ring), {
    mode: 0o600,
    flag: 'wx',
  });
}

describe('ledger adapter', () => {
  let ledger: Ledger;
  let hangingLedger: Awaited<ReturnType<typeof blackHole>>;
  let custody: Custody;
  let operations: Operations;
  let submit: Submit;
  let balances: Balances;
  let submissions: Submissions;
  let funding: { publicKey: string; sealedSecret: import('../../lib/ledger/custody.ts').SealedSecret };
  /** The channel accounts (public keys) every wallet transaction is built on. */
  let channels: string[] = [];
  let issuer: typeof funding;
  let asset: { code: string; issuer: string };

  const horizon = async (path: string) => {
    const response = await fetch(`${ledger.url}${path}`);
    // biome-ignore lint/suspicious/noExplicitAny: Horizon resources are asserted on field by field.
    const body: any = await response.json();
    return { status: response.status, body };
  };
  const sequenceOf = async (publicKey: string) =>
    BigInt((await horizon(`/accounts/${publicKey}`)).body.sequence);
  const balanceOf = async (publicKey: string, code = ASSET_CODE) => {
    const { balances: lines } = await balances.accountBalances('sandbox', publicKey);
    return lines.find((line) => line.assetCode === code)?.balance;
  };
  /** A new wallet, opened on the ledger with the test asset's trustline. */
  const openWallet = async () => {
    const keys = await custody.newAccountKeys('sandbox');
    const outcome = await operations.activateAccount({
      environment: 'sandbox',
      intentId: `test-activation:${randomUUID()}`,
      account: keys,
      trustline: asset,
      ...PATIENT,
    });
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
    return keys;
  };
  /** Funds a wallet with the test asset straight from the issuer. */
  const fund = async (to: string, amount: string) => {
    const outcome = await operations.pay({
      environment: 'sandbox',
      intentId: `test-fund:${randomUUID()}`,
      from: issuer,
      to,
      asset,
      amount,
      ...PATIENT,
    });
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
  };

  beforeAll(async () => {
    ensureKek();
    // Platform accounts come first: the ledger's genesis holds them.
    resetConfig();
    const platform: PlatformAccounts = await import('../../lib/ledger/platform-accounts.ts');
    funding = await platform.ensurePlatformAccount('sandbox', 'funding');
    issuer = await platform.ensurePlatformAccount('sandbox', `issuer:${ASSET_CODE}`);
    asset = { code: ASSET_CODE, issuer: issuer.publicKey };
    const channelAccounts = await channelGenesis();
    channels = channelAccounts.map((account) => account.publicKey);
    ledger = await startLocalLedger({
      port: 0,
      networkPassphrase: `Ledger adapter test ; ${randomUUID()}`,
      genesis: {
        accounts: [
          { publicKey: funding.publicKey, nativeBalance: '100000' },
          { publicKey: issuer.publicKey, nativeBalance: '100000' },
          ...channelAccounts,
        ],
      },
    });
    process.env.HORIZON_URL_SANDBOX = ledger.url;
    process.env.NETWORK_PASSPHRASE_SANDBOX = ledger.networkPassphrase;
    hangingLedger = await blackHole();
    process.env.HORIZON_URL_PRODUCTION = hangingLedger.url;
    process.env.LEDGER_TIMEOUT_MS = '1000';
    resetConfig();
    custody = await import('../../lib/ledger/custody.ts');
    operations = await import('../../lib/ledger/operations.ts');
    submit = await import('../../lib/ledger/submit.ts');
    balances = await import('../../lib/ledger/balances.ts');
    submissions = await import('../../lib/ledger/submissions.ts');
  });

  afterAll(async () => {
    await ledger?.stop();
    hangingLedger?.close();
  });

  it('opens an account with its trustline, holding only its reserves', async () => {
    const keys = await custody.newAccountKeys('sandbox');
    const fundingSequence = await sequenceOf(funding.publicKey);
    const outcome = await operations.activateAccount({
      environment: 'sandbox',
      intentId: `test-activation:${randomUUID()}`,
      account: keys,
      trustline: asset,
      ...FAST,
    });
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
    assert.equal(outcome.attempt, 1);
    assert.match(outcome.hash ?? '', /^[0-9a-f]{64}$/);
    assert.ok(outcome.status === 'succeeded' && typeof outcome.ledger === 'number' && outcome.ledger > 1);

    const { status, body } = await horizon(`/accounts/${keys.publicKey}`);
    assert.equal(status, 200);
    const native = body.balances.find((b: { asset_type: string }) => b.asset_type === 'native');
    assert.equal(native.balance, '1.5000000');
    const line = body.balances.find((b: { asset_code?: string }) => b.asset_code === ASSET_CODE);
    assert.equal(line?.asset_issuer, issuer.publicKey);
    assert.equal(line?.balance, '0.0000000');
    // Built on a channel account: funding pays the fee and signs its CreateAccount; its sequence is untouched.
    assert.equal(await sequenceOf(funding.publicKey), fundingSequence);
    const landed = (await horizon(`/transactions/${outcome.hash}`)).body;
    assert.equal(landed.fee_account, funding.publicKey);
    assert.ok(channels.includes(landed.source_account), landed.source_account);

    const read = await balances.accountBalances('sandbox', keys.publicKey);
    assert.equal(read.exists, true);
    const held = read.balances
      .map((b) => `${b.assetCode}:${b.balance}:${b.assetIssuer}:${b.assetType}`)
      .sort();
    assert.deepEqual(held, [
      `${ASSET_CODE}:0.0000000:${issuer.publicKey}:credit_alphanum4`,
      'XLM:1.5000000:null:native',
    ]);
  });

  it('is idempotent: the same intent returns the stored outcome, a new intent for an open account submits nothing', async () => {
    const keys = await custody.newAccountKeys('sandbox');
    const intentId = `test-activation:${randomUUID()}`;
    const input = { environment: 'sandbox' as const, intentId, account: keys, trustline: asset, ...FAST };
    const first = await operations.activateAccount(input);
    assert.equal(first.status, 'succeeded');
    const fundingSequence = await sequenceOf(funding.publicKey);
    const walletSequence = await sequenceOf(keys.publicKey);

    assert.deepEqual(await operations.activateAccount(input), first);
    const again = await operations.activateAccount({ ...input, intentId: `test-activation:${randomUUID()}` });
    assert.deepEqual(again, {
      status: 'succeeded',
      intentId: again.intentId,
      hash: null,
      ledger: null,
      attempt: 1,
    });

    assert.equal(await sequenceOf(funding.publicKey), fundingSequence);
    assert.equal(await sequenceOf(keys.publicKey), walletSequence);
    const { body } = await horizon(`/accounts/${keys.publicKey}/operations?limit=200`);
    const types = body._embedded.records.map((o: { type: string }) => o.type);
    assert.deepEqual(
      types.filter((t: string) => t === 'create_account'),
      ['create_account'],
    );
    assert.deepEqual(
      types.filter((t: string) => t === 'change_trust'),
      ['change_trust'],
    );
  });

  it('adds a missing trustline to an open account, topping up its reserve, fees paid by funding', async () => {
    const keys = await custody.newAccountKeys('sandbox');
    const bare = await operations.activateAccount({
      environment: 'sandbox',
      intentId: `test-activation:${randomUUID()}`,
      account: keys,
      trustline: null,
      ...FAST,
    });
    assert.equal(bare.status, 'succeeded', JSON.stringify(bare));
    assert.equal(await balanceOf(keys.publicKey, 'XLM'), '1.0000000');
    assert.equal(await balanceOf(keys.publicKey), undefined);

    const walletSequence = await sequenceOf(keys.publicKey);
    const outcome = await operations.activateAccount({
      environment: 'sandbox',
      intentId: `test-activation:${randomUUID()}`,
      account: keys,
      trustline: asset,
      ...FAST,
    });
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
    assert.equal(await balanceOf(keys.publicKey), '0.0000000');
    assert.equal(await balanceOf(keys.publicKey, 'XLM'), '1.5000000');
    // The transaction's source is a channel account: the wallet only acts in its ChangeTrust.
    assert.equal(await sequenceOf(keys.publicKey), walletSequence);
    const { body } = await horizon(`/transactions/${outcome.hash}`);
    assert.equal(body.successful, true);
    assert.equal(body.fee_account, funding.publicKey);
  });

  it('pays between wallets; balances reflect it and the payer spends no XLM', async () => {
    const alice = await openWallet();
    const bob = await openWallet();
    await fund(alice.publicKey, '100');
    assert.equal(await balanceOf(alice.publicKey), '100.0000000');

    const outcome = await operations.pay({
      environment: 'sandbox',
      intentId: `test-pay:${randomUUID()}`,
      from: alice,
      to: bob.publicKey,
      asset,
      amount: '30.5',
      memo: 'invoice 42',
      ...FAST,
    });
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
    assert.equal(await balanceOf(alice.publicKey), '69.5000000');
    assert.equal(await balanceOf(bob.publicKey), '30.5000000');
    assert.equal(await balanceOf(alice.publicKey, 'XLM'), '1.5000000');
    const { body } = await horizon(`/transactions/${outcome.hash}`);
    assert.equal(body.fee_account, funding.publicKey);
    assert.equal(body.memo, 'invoice 42');
  });

  it('refuses bad amounts before anything is recorded or sent', async () => {
    const alice = await openWallet();
    const sequence = await sequenceOf(alice.publicKey);
    for (const amount of ['0', '-1', '1.00000001', '1e3', 'ten', '922337203685.4775808']) {
      const intentId = `test-pay:${randomUUID()}`;
      await assert.rejects(
        operations.pay({
          environment: 'sandbox',
          intentId,
          from: alice,
          to: issuer.publicKey,
          asset,
          amount,
        }),
        { name: 'LedgerInputError' },
        amount,
      );
      assert.equal(await submissions.findSubmission('sandbox', intentId), undefined, `${amount}: recorded`);
    }
    // Nothing was sent: the payer's sequence number was not consumed.
    assert.equal(await sequenceOf(alice.publicKey), sequence);
  });

  it('a payment without the funds fails with an error code, and stays failed', async () => {
    const alice = await openWallet();
    const bob = await openWallet();
    await fund(alice.publicKey, '5');
    const input = {
      environment: 'sandbox' as const,
      intentId: `test-pay:${randomUUID()}`,
      from: alice,
      to: bob.publicKey,
      asset,
      amount: '5.0000001',
      ...FAST,
    };
    const outcome = await operations.pay(input);
    assert.equal(outcome.status, 'failed', JSON.stringify(outcome));
    assert.ok(outcome.status === 'failed');
    assert.equal(outcome.errorCode, 'LEDGER_OP_UNDERFUNDED');
    assert.equal(outcome.failureReason, 'The source wallet does not hold enough of the asset.');
    assert.equal(await balanceOf(alice.publicKey), '5.0000000');
    assert.equal(await balanceOf(bob.publicKey), '0.0000000');
    const sequence = await sequenceOf(alice.publicKey);
    assert.deepEqual(await operations.pay(input), outcome);
    assert.equal(await sequenceOf(alice.publicKey), sequence);
  });

  it('a payment to an account without the trustline fails as op_no_trust', async () => {
    const alice = await openWallet();
    await fund(alice.publicKey, '5');
    const stranger = await custody.newAccountKeys('sandbox');
    const opened = await operations.activateAccount({
      environment: 'sandbox',
      intentId: `test-activation:${randomUUID()}`,
      account: stranger,
      trustline: null,
      ...FAST,
    });
    assert.equal(opened.status, 'succeeded');
    const outcome = await operations.pay({
      environment: 'sandbox',
      intentId: `test-pay:${randomUUID()}`,
      from: alice,
      to: stranger.publicKey,
      asset,
      amount: '1',
      ...FAST,
    });
    assert.equal(outcome.status, 'failed');
    assert.ok(outcome.status === 'failed');
    assert.equal(outcome.errorCode, 'LEDGER_OP_NO_TRUST');
  });

  it('a dropped submission response still ends succeeded, with exactly one ledger transaction', async () => {
    const alice = await openWallet();
    await fund(alice.publicKey, '50');
    const bob = await openWallet();
    const sequence = await sequenceOf(alice.publicKey);
    ledger.dropNextSubmissionResponse();
    const outcome = await operations.pay({
      environment: 'sandbox',
      intentId: `test-pay:${randomUUID()}`,
      from: alice,
      to: bob.publicKey,
      asset,
      amount: '20',
      ...FAST,
    });
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
    assert.equal(outcome.attempt, 1);
    // Settled from the lookup by hash (the submission's answer never came).
    const landed = await horizon(`/transactions/${outcome.hash}`);
    assert.ok(outcome.status === 'succeeded' && outcome.ledger === landed.body.ledger);
    assert.equal(await balanceOf(alice.publicKey), '30.0000000');
    assert.equal(await balanceOf(bob.publicKey), '20.0000000');
    assert.equal(await sequenceOf(alice.publicKey), sequence, 'built on a channel, not on the wallet');
    const { body } = await horizon(`/accounts/${alice.publicKey}/transactions?limit=200`);
    assert.equal(body._embedded.records.filter((t: { hash: string }) => t.hash === outcome.hash).length, 1);
  });

  it('a second submitOnce for a settled intent returns the stored outcome without building or submitting', async () => {
    const alice = await openWallet();
    const intentId = `test-pay:${randomUUID()}`;
    const paid = await operations.pay({
      environment: 'sandbox',
      intentId,
      from: issuer,
      to: alice.publicKey,
      asset,
      amount: '7',
      ...FAST,
    });
    assert.equal(paid.status, 'succeeded');
    const sequence = await sequenceOf(issuer.publicKey);
    const again = await submit.submitOnce({
      environment: 'sandbox',
      intentId,
      build: () => assert.fail('a settled intent must not be built again'),
    });
    assert.deepEqual(again, paid);
    assert.equal(await sequenceOf(issuer.publicKey), sequence);
    assert.equal(await balanceOf(alice.publicKey), '7.0000000');
  });

  /** A build that pays `amount` from the issuer, counting its calls. */
  const issuerPayment = (to: string, amount: string) => {
    let calls = 0;
    const build: import('../../lib/ledger/submit.ts').BuildTransaction = async (ctx) => {
      calls += 1;
      const source = await platformLedgerAccount(ctx.environment, issuer.publicKey, 'source');
      const tx = new TransactionBuilder(source, {
        fee: '100',
        networkPassphrase: ctx.networkPassphrase,
        timebounds: submit.timeBoundsFor(ctx.now),
      })
        .addOperation(
          Operation.payment({ destination: to, asset: new Asset(asset.code, asset.issuer), amount }),
        )
        .build();
      tx.sign(await custody.openSecret('sandbox', issuer.publicKey, issuer.sealedSecret));
      return tx;
    };
    return { build, calls: () => calls };
  };

  it('a crash after persisting: the stored envelope is sent as is while it can still land', async () => {
    const alice = await openWallet();
    const intentId = `test-crash:${randomUUID()}`;
    const payment = issuerPayment(alice.publicKey, '3');
    const prepared = await submit.prepareSubmission({
      environment: 'sandbox',
      intentId,
      build: payment.build,
    });
    assert.ok('envelopeXdr' in prepared && prepared.status === 'submitting');
    assert.equal((await horizon(`/transactions/${prepared.hash}`)).status, 404);

    const outcome = await submit.submitOnce({
      environment: 'sandbox',
      intentId,
      build: payment.build,
      ...FAST,
    });
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
    assert.equal(outcome.hash, prepared.hash);
    assert.equal(outcome.attempt, 1);
    assert.equal(payment.calls(), 1);
    assert.equal(await balanceOf(alice.publicKey), '3.0000000');
  });

  it('a crash after persisting an envelope that expired: a new one is built and lands once', async () => {
    const alice = await openWallet();
    const intentId = `test-expired:${randomUUID()}`;
    const payment = issuerPayment(alice.publicKey, '4');
    const sequence = await sequenceOf(issuer.publicKey);
    // Built and persisted 200 s ago (maxTime 140 s ago), then the worker died before submitting.
    const longAgo = () => new Date(Date.now() - 200_000);
    const prepared = await submit.prepareSubmission({
      environment: 'sandbox',
      intentId,
      build: payment.build,
      now: longAgo,
    });
    assert.ok('envelopeXdr' in prepared && prepared.maxTime !== null);
    assert.ok(prepared.maxTime < Date.now() / 1000 - 100);

    const outcome = await submit.submitOnce({
      environment: 'sandbox',
      intentId,
      build: payment.build,
      ...FAST,
    });
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
    assert.equal(outcome.attempt, 2);
    assert.notEqual(outcome.hash, prepared.hash);
    assert.equal(payment.calls(), 2);
    assert.equal(await balanceOf(alice.publicKey), '4.0000000');
    assert.equal(await sequenceOf(issuer.publicKey), sequence + 1n);
    assert.equal((await horizon(`/transactions/${prepared.hash}`)).status, 404);
    const record = await submissions.findSubmission('sandbox', intentId);
    assert.deepEqual(
      record?.envelopes.map((e) => e.hash),
      [prepared.hash, outcome.hash],
    );
  });

  it('an envelope with a stale sequence number (tx_bad_seq) is rebuilt at once and lands once', async () => {
    const alice = await openWallet();
    const intentId = `test-bad-seq:${randomUUID()}`;
    const sequence = await sequenceOf(issuer.publicKey);
    const payment = issuerPayment(alice.publicKey, '2');
    const staleFirst: import('../../lib/ledger/submit.ts').BuildTransaction = async (ctx) => {
      if (ctx.attempt > 1) return payment.build(ctx);
      const stale = new Account(issuer.publicKey, String(sequence - 1n));
      const tx = new TransactionBuilder(stale, {
        fee: '100',
        networkPassphrase: ctx.networkPassphrase,
        timebounds: submit.timeBoundsFor(ctx.now),
      })
        .addOperation(
          Operation.payment({
            destination: alice.publicKey,
            asset: new Asset(asset.code, asset.issuer),
            amount: '2',
          }),
        )
        .build();
      tx.sign(await custody.openSecret('sandbox', issuer.publicKey, issuer.sealedSecret));
      return tx;
    };
    const outcome = await submit.submitOnce({ environment: 'sandbox', intentId, build: staleFirst, ...FAST });
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
    assert.equal(outcome.attempt, 2);
    assert.equal(await balanceOf(alice.publicKey), '2.0000000');
    assert.equal(await sequenceOf(issuer.publicKey), sequence + 1n);
  });

  it('two workers submitting one intent at once put one transaction on the ledger', async () => {
    const alice = await openWallet();
    const intentId = `test-race:${randomUUID()}`;
    const sequence = await sequenceOf(issuer.publicKey);
    const payment = issuerPayment(alice.publicKey, '6');
    const [a, b] = await Promise.all([
      submit.submitOnce({ environment: 'sandbox', intentId, build: payment.build, ...FAST }),
      submit.submitOnce({ environment: 'sandbox', intentId, build: payment.build, ...FAST }),
    ]);
    assert.equal(a.status, 'succeeded', JSON.stringify(a));
    assert.deepEqual(b, a);
    assert.equal(await balanceOf(alice.publicKey), '6.0000000');
    assert.equal(await sequenceOf(issuer.publicKey), sequence + 1n);
  });

  it('refuses to submit a transaction without maxTime', async () => {
    const build: import('../../lib/ledger/submit.ts').BuildTransaction = async (ctx) => {
      const source = await platformLedgerAccount(ctx.environment, issuer.publicKey, 'source');
      const tx = new TransactionBuilder(source, { fee: '100', networkPassphrase: ctx.networkPassphrase })
        .addOperation(Operation.bumpSequence({ bumpTo: '0' }))
        .setTimeout(0)
        .build();
      tx.sign(await custody.openSecret('sandbox', issuer.publicKey, issuer.sealedSecret));
      return tx;
    };
    const intentId = `test-unbounded:${randomUUID()}`;
    await assert.rejects(submit.submitOnce({ environment: 'sandbox', intentId, build }), /no maxTime/);
    assert.equal(await submissions.findSubmission('sandbox', intentId), undefined);
  });

  /** An envelope built without reading the ledger (for ledgers that never answer). */
  const offlineBuild =
    (source: Keypair): BuildTransaction =>
    async (ctx) => {
      const tx = new TransactionBuilder(new Account(source.publicKey(), '1'), {
        fee: '100',
        networkPassphrase: ctx.networkPassphrase,
        timebounds: submit.timeBoundsFor(ctx.now),
      })
        .addOperation(Operation.bumpSequence({ bumpTo: '10' }))
        .build();
      tx.sign(source);
      return tx;
    };

  it('a ledger that hangs leaves the intent pending within the timeout, and a retry resumes the stored envelope', async () => {
    // Production points at a server that never answers here (LEDGER_TIMEOUT_MS = 1000, not the SDK's 60 s).
    // The envelope is built offline (no ledger read needed).
    const source = Keypair.random();
    const intentId = `test-unreachable:${randomUUID()}`;
    let builds = 0;
    const offline = offlineBuild(source);
    const build: BuildTransaction = async (ctx) => {
      builds += 1;
      return offline(ctx);
    };
    const options = { environment: 'production' as const, intentId, build, maxRounds: 1, pauseMs: 10 };
    const started = Date.now();
    const first = await submit.submitOnce(options);
    // LEDGER_TIMEOUT_MS, not the SDK's 60 s: half of that is a bound no busy machine comes near for 1 s.
    assert.ok(Date.now() - started < 30_000, `took ${Date.now() - started} ms`);
    assert.equal(first.status, 'pending', JSON.stringify(first));
    assert.ok(first.status === 'pending');
    assert.equal(first.errorCode, 'LEDGER_TIMEOUT');
    assert.match(first.hash ?? '', /^[0-9a-f]{64}$/);
    const retry = await submit.submitOnce(options);
    assert.equal(retry.status, 'pending');
    assert.equal(retry.hash, first.hash);
    assert.equal(builds, 1);
    const record = await submissions.findSubmission('production', intentId);
    assert.equal(record?.status, 'submitting');
    assert.equal(record?.attempt, 1);

    await assert.rejects(balances.accountBalances('production', source.publicKey()), {
      name: 'LedgerUnavailableError',
    });
  });

  it('starts no round after its budget: one ledger request, then pending', async () => {
    const source = Keypair.random();
    const build = offlineBuild(source);
    const options = { environment: 'production' as const, build, maxRounds: 20, pauseMs: 10 };
    const before = hangingLedger.requests().length;
    const budgeted = await submit.submitOnce({
      ...options,
      intentId: `test-budget:${randomUUID()}`,
      budgetMs: 0,
    });
    assert.equal(budgeted.status, 'pending');
    const sent = hangingLedger.requests().slice(before);
    assert.deepEqual(sent, ['POST /transactions HTTP/1.1'], 'the submission of round 1 only');
    // Without a budget the same call goes on looking (round 2 looks the hash up, and so on).
    const unbudgeted = await submit.submitOnce({
      ...options,
      intentId: `test-budget:${randomUUID()}`,
      maxRounds: 2,
    });
    assert.equal(unbudgeted.status, 'pending');
    assert.ok(hangingLedger.requests().length - before > 2);
  });

  it('finds an envelope whose inner transaction landed under another fee bump, and never sends a second', async () => {
    const alice = await openWallet();
    await fund(alice.publicKey, '10');
    const bob = await openWallet();
    const intentId = `test-rebumped:${randomUUID()}`;
    const sequence = await sequenceOf(alice.publicKey);
    let builds = 0;
    // The real pay builder, stopped after persisting: a worker that crashed before submitting.
    const prepared = await submit.prepareSubmission({
      environment: 'sandbox',
      intentId,
      build: async (ctx) => {
        builds += 1;
        const source = await platformLedgerAccount(ctx.environment, alice.publicKey, 'source');
        const inner = new TransactionBuilder(source, {
          fee: '100',
          networkPassphrase: ctx.networkPassphrase,
          timebounds: submit.timeBoundsFor(ctx.now),
        })
          .addOperation(
            Operation.payment({
              destination: bob.publicKey,
              asset: new Asset(asset.code, asset.issuer),
              amount: '1',
            }),
          )
          .build();
        inner.sign(await custody.openSecret('sandbox', alice.publicKey, alice.sealedSecret));
        const fundingKeys = await custody.openSecret('sandbox', funding.publicKey, funding.sealedSecret);
        const bump = TransactionBuilder.buildFeeBumpTransaction(
          fundingKeys,
          '100',
          inner,
          ctx.networkPassphrase,
        );
        bump.sign(fundingKeys);
        return bump;
      },
    });
    assert.ok('envelopeXdr' in prepared && prepared.envelopeXdr && prepared.innerHash);
    // Someone else wraps the same signed inner transaction in their own fee bump and submits it.
    const stored = TransactionBuilder.fromXDR(
      prepared.envelopeXdr,
      ledger.networkPassphrase,
    ) as FeeBumpTransaction;
    const issuerKeys = await custody.openSecret('sandbox', issuer.publicKey, issuer.sealedSecret);
    const other = TransactionBuilder.buildFeeBumpTransaction(
      issuerKeys,
      '200',
      stored.innerTransaction,
      ledger.networkPassphrase,
    );
    other.sign(issuerKeys);
    const otherHash = Buffer.from(other.hash()).toString('hex');
    const posted = await fetch(`${ledger.url}/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ tx: other.toXDR() }).toString(),
    });
    assert.equal(posted.status, 200, await posted.text());

    const outcome = await submit.submitOnce({
      environment: 'sandbox',
      intentId,
      build: () => assert.fail('nothing may be built: the stored inner transaction landed'),
      ...FAST,
    });
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
    assert.equal(outcome.hash, otherHash);
    assert.equal(builds, 1);
    assert.equal(await balanceOf(bob.publicKey), '1.0000000');
    assert.equal(await sequenceOf(alice.publicKey), sequence + 1n);
    const byInner = await horizon(`/transactions/${prepared.innerHash}`);
    assert.equal(byInner.status, 200);
    assert.equal(byInner.body.fee_bump_transaction?.hash, otherHash);
  });

  it('reports an account the ledger does not hold as not existing', async () => {
    assert.deepEqual(await balances.accountBalances('sandbox', Keypair.random().publicKey()), {
      exists: false,
      balances: [],
    });
  });
});
