// The local Horizon-compatible ledger, driven only the way production code drives Horizon: through the SDK's
// Horizon.Server over HTTP, with envelopes built and signed by TransactionBuilder. Every validity rule and
// result code the ledger implements is exercised here, and balances are checked to the stroop.
import assert from 'node:assert/strict';
import {
  Account,
  Asset,
  FeeBumpTransaction,
  Horizon,
  Keypair,
  Memo,
  NetworkError,
  NotFoundError,
  Operation,
  Transaction,
  TransactionBuilder,
  TransactionFailedError,
  xdr,
} from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type LocalLedger, startLocalLedger } from '../../local/ledger/index.ts';

const networkPassphrase = 'Local Ledger Test Network ; 2025';
const bank = Keypair.random();
const issuer = Keypair.random();
const trader = Keypair.random();
const sponsor = Keypair.random();
const USD = new Asset('USD', issuer.publicKey());
const EURO = new Asset('EUROTOKEN', issuer.publicKey());

let ledger: LocalLedger;
let server: Horizon.Server;

type TxResponse = Horizon.HorizonApi.TransactionResponse;
type Tx = Transaction | FeeBumpTransaction;

/** Horizon prints 7 decimal places; as stroops the comparisons are exact. */
const stroops = (amount: string) => {
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole) * 10_000_000n + BigInt(fraction.padEnd(7, '0'));
};
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  ledger = await startLocalLedger({
    port: 0,
    networkPassphrase,
    genesis: {
      accounts: [
        { publicKey: bank.publicKey(), nativeBalance: '1000000' },
        { publicKey: issuer.publicKey(), nativeBalance: '1000' },
        { publicKey: sponsor.publicKey(), nativeBalance: '1000' },
        {
          publicKey: trader.publicKey(),
          nativeBalance: '5000',
          trustlines: [
            { asset: { code: 'USD', issuer: issuer.publicKey() }, balance: '2500' },
            { asset: { code: 'EUROTOKEN', issuer: issuer.publicKey() }, balance: '10', limit: '1000' },
          ],
        },
      ],
      pools: [
        {
          assetA: { code: 'USD', issuer: issuer.publicKey() },
          assetB: 'native',
          reserveA: '5000',
          reserveB: '10000',
        },
        {
          assetA: { code: 'USD', issuer: issuer.publicKey() },
          assetB: { code: 'EUROTOKEN', issuer: issuer.publicKey() },
          reserveA: '5000',
          reserveB: '4000',
        },
      ],
    },
  });
  server = new Horizon.Server(ledger.url, { allowHttp: true });
});

afterAll(async () => {
  await ledger?.stop();
});

interface BuildOptions {
  fee?: string;
  signers?: Keypair[];
  account?: Account;
  timebounds?: { minTime: number; maxTime: number };
  memo?: Memo;
}

async function build(
  source: Keypair,
  operations: xdr.Operation[],
  options: BuildOptions = {},
): Promise<Transaction> {
  const account = options.account ?? (await server.loadAccount(source.publicKey()));
  const builder = new TransactionBuilder(account, {
    fee: options.fee ?? String(await server.fetchBaseFee()),
    networkPassphrase,
    ...(options.timebounds ? { timebounds: options.timebounds } : {}),
  });
  for (const operation of operations) builder.addOperation(operation);
  if (options.memo) builder.addMemo(options.memo);
  if (!options.timebounds) builder.setTimeout(60);
  const tx = builder.build();
  tx.sign(...(options.signers ?? [source]));
  return tx;
}

async function submit(tx: Tx): Promise<TxResponse> {
  return (await server.submitTransaction(tx)) as unknown as TxResponse;
}

/** The problem body of a submission the SDK rejected with TransactionFailedError (as Horizon's 400). */
async function rejected(tx: Tx) {
  try {
    await server.submitTransaction(tx);
  } catch (error) {
    assert.ok(error instanceof TransactionFailedError, `expected TransactionFailedError, got ${error}`);
    const data = error.response.data as unknown as {
      type: string;
      status: number;
      extras: {
        result_codes: { transaction: string; inner_transaction?: string; operations?: string[] };
        result_xdr: string;
        envelope_xdr: string;
      };
    };
    assert.equal(data.type, 'https://stellar.org/horizon-errors/transaction_failed');
    assert.equal(error.response.status, 400);
    // The SDK's own decoder agrees with the codes.
    const result = error.getTransactionResult();
    assert.ok(result);
    return { data, codes: data.extras.result_codes, result };
  }
  assert.fail('submission was expected to fail');
}

async function fund(startingBalance = '100', keypair = Keypair.random()): Promise<Keypair> {
  await submit(
    await build(bank, [Operation.createAccount({ destination: keypair.publicKey(), startingBalance })]),
  );
  return keypair;
}

async function native(id: string): Promise<bigint> {
  const account = await server.loadAccount(id);
  const line = account.balances.find((b) => b.asset_type === 'native');
  assert.ok(line);
  return stroops(line.balance);
}

async function credit(id: string, asset: Asset): Promise<bigint | undefined> {
  const account = await server.loadAccount(id);
  const line = account.balances.find(
    (b) => 'asset_code' in b && b.asset_code === asset.getCode() && b.asset_issuer === asset.getIssuer(),
  );
  return line ? stroops(line.balance) : undefined;
}

async function sequence(id: string): Promise<bigint> {
  return BigInt((await server.loadAccount(id)).sequence);
}

async function trust(holder: Keypair, asset: Asset, limit?: string): Promise<void> {
  await submit(await build(holder, [Operation.changeTrust({ asset, ...(limit ? { limit } : {}) })]));
}

const pay = (destination: string, amount: string, asset: Asset = Asset.native(), source?: string) =>
  Operation.payment({ destination, amount, asset, ...(source ? { source } : {}) });

/** stellar-core's strict-send pool price, computed independently of the ledger. */
const poolOut = (reserveIn: bigint, reserveOut: bigint, amountIn: bigint) =>
  (9970n * reserveOut * amountIn) / (10_000n * reserveIn + 9970n * amountIn);

describe('local ledger: network metadata', () => {
  it('serves root, fee stats, the latest ledger and a Date header the SDK turns into time bounds', async () => {
    const root = await server.root();
    assert.equal(root.network_passphrase, networkPassphrase);
    assert.equal(root.core_latest_ledger, root.history_latest_ledger);
    assert.equal(typeof root.current_protocol_version, 'number');

    assert.equal(await server.fetchBaseFee(), 100);
    const fees = await server.feeStats();
    assert.equal(fees.last_ledger_base_fee, '100');
    assert.equal(fees.last_ledger, String(root.history_latest_ledger));
    assert.equal(fees.fee_charged.p50, '100');
    assert.equal(fees.max_fee.p99, '100');

    const page = await server.ledgers().order('desc').limit(1).call();
    assert.equal(page.records.length, 1);
    assert.equal(page.records[0]?.sequence, root.history_latest_ledger);
    assert.equal(page.records[0]?.base_fee_in_stroops, 100);
    assert.equal(page.records[0]?.base_reserve_in_stroops, 5_000_000);

    const raw = await server.httpClient.get(ledger.url);
    const date = Date.parse((raw.headers as unknown as Headers).get('date') ?? '');
    assert.ok(Math.abs(date / 1000 - now()) <= 2, 'a Date header with the server clock');
    const bounds = await server.fetchTimebounds(100);
    assert.ok(Math.abs(bounds.maxTime - (now() + 100)) <= 2, 'time bounds follow the server clock');
  });

  it('loads genesis accounts with Horizon-shaped balances, thresholds and signers', async () => {
    const account = await server.loadAccount(trader.publicKey());
    assert.equal(account.account_id, trader.publicKey());
    assert.equal(account.sequence, String(1n << 32n));
    assert.equal(account.subentry_count, 2);
    assert.deepEqual(account.thresholds, { low_threshold: 0, med_threshold: 0, high_threshold: 0 });
    assert.deepEqual(account.signers, [{ weight: 1, key: trader.publicKey(), type: 'ed25519_public_key' }]);
    assert.equal(account.num_sponsoring, 0);
    assert.deepEqual(account.data_attr, {});
    const [usd, euro, xlm] = account.balances;
    assert.deepEqual(usd, {
      balance: '2500.0000000',
      limit: '922337203685.4775807',
      buying_liabilities: '0.0000000',
      selling_liabilities: '0.0000000',
      last_modified_ledger: 1,
      is_authorized: true,
      is_authorized_to_maintain_liabilities: true,
      is_clawback_enabled: false,
      asset_type: 'credit_alphanum4',
      asset_code: 'USD',
      asset_issuer: issuer.publicKey(),
    });
    assert.equal(euro && 'asset_type' in euro && euro.asset_type, 'credit_alphanum12');
    assert.equal(euro && 'limit' in euro && euro.limit, '1000.0000000');
    assert.deepEqual(xlm, {
      balance: '5000.0000000',
      buying_liabilities: '0.0000000',
      selling_liabilities: '0.0000000',
      asset_type: 'native',
    });
  });

  it('answers an unknown account with a 404 not_found problem', async () => {
    await assert.rejects(server.loadAccount(Keypair.random().publicKey()), (error: unknown) => {
      assert.ok(error instanceof NotFoundError);
      // Unlike submitTransaction's errors, the call builders' errors carry the problem body itself as `response`.
      const data = error.response as unknown as { type: string; status: number };
      assert.equal(data.type, 'https://stellar.org/horizon-errors/not_found');
      assert.equal(data.status, 404);
      return true;
    });
  });
});

describe('local ledger: submission', () => {
  it('applies a payment, charges the base fee, consumes the sequence and closes one ledger', async () => {
    const alice = await fund('100');
    const bob = await fund('10');
    const before = (await server.root()).history_latest_ledger;
    const tx = await build(alice, [pay(bob.publicKey(), '12.5')], { memo: Memo.text('invoice 7') });
    const res = await submit(tx);

    assert.equal(res.successful, true);
    assert.equal(res.hash, hex(tx.hash()));
    assert.equal(res.ledger, before + 1);
    assert.equal(res.fee_charged, '100');
    assert.equal(res.max_fee, '100');
    assert.equal(res.source_account, alice.publicKey());
    assert.equal(res.fee_account, alice.publicKey());
    assert.equal(res.operation_count, 1);
    assert.equal(res.memo_type, 'text');
    assert.equal(res.memo, 'invoice 7');
    assert.equal(res.envelope_xdr, tx.toXDR());
    const result = xdr.TransactionResult.fromXdr(res.result_xdr, 'base64');
    assert.equal(result.feeCharged, 100n);
    assert.equal(result.result.type, 'txSuccess');
    xdr.TransactionMeta.fromXdr(res.result_meta_xdr, 'base64');

    assert.equal(await native(alice.publicKey()), 100_0000000n - 12_5000000n - 100n);
    assert.equal(await native(bob.publicKey()), 22_5000000n);
    assert.equal(await sequence(alice.publicKey()), BigInt(tx.sequence));
    assert.equal((await server.root()).history_latest_ledger, before + 1);

    const found = await server.transactions().transaction(res.hash).call();
    assert.equal(found.successful, true);
    assert.equal(found.hash, res.hash);
    assert.equal(found.paging_token, res.paging_token);
    assert.equal(found.source_account_sequence, tx.sequence);
  });

  it('rejects a stale sequence number with tx_bad_seq, charging nothing', async () => {
    const alice = await fund('50');
    const current = await sequence(alice.publicKey());
    const balance = await native(alice.publicKey());
    const stale = new Account(alice.publicKey(), String(current - 1n));
    const { codes, result } = await rejected(
      await build(alice, [pay(bank.publicKey(), '1')], { account: stale }),
    );
    assert.deepEqual(codes, { transaction: 'tx_bad_seq' });
    assert.equal(result.result.type, 'txBadSeq');
    assert.equal(result.feeCharged, 100n);
    assert.equal(await native(alice.publicKey()), balance);
    assert.equal(await sequence(alice.publicKey()), current);
    // A sequence number from the future is just as wrong.
    const ahead = new Account(alice.publicKey(), String(current + 1n));
    const skipped = await build(alice, [pay(bank.publicKey(), '1')], { account: ahead });
    assert.deepEqual((await rejected(skipped)).codes, { transaction: 'tx_bad_seq' });
  });

  it('enforces time bounds (tx_too_late, tx_too_early)', async () => {
    const alice = await fund('50');
    const late = await build(alice, [pay(bank.publicKey(), '1')], {
      timebounds: { minTime: 0, maxTime: now() - 10 },
    });
    assert.deepEqual((await rejected(late)).codes, { transaction: 'tx_too_late' });
    const early = await build(alice, [pay(bank.publicKey(), '1')], {
      timebounds: { minTime: now() + 3600, maxTime: 0 },
    });
    assert.deepEqual((await rejected(early)).codes, { transaction: 'tx_too_early' });
  });

  it('requires base fee × operations (tx_insufficient_fee)', async () => {
    const alice = await fund('50');
    const cheap = await build(alice, [pay(bank.publicKey(), '1'), pay(bank.publicKey(), '1')], { fee: '99' });
    const { codes, result } = await rejected(cheap);
    assert.deepEqual(codes, { transaction: 'tx_insufficient_fee' });
    assert.equal(result.result.type, 'txInsufficientFee');
    // A generous bid is only a maximum: without surge pricing the base fee is what gets charged.
    const generous = await submit(await build(alice, [pay(bank.publicKey(), '1')], { fee: '1000' }));
    assert.equal(generous.max_fee, '1000');
    assert.equal(generous.fee_charged, '100');
    assert.equal(await native(alice.publicKey()), 49_0000000n - 100n);
  });

  it('checks signatures: tx_bad_auth, op_bad_auth and tx_bad_auth_extra', async () => {
    const alice = await fund('50');
    const bob = await fund('50');
    const mallory = Keypair.random();
    const wrongKey = await build(alice, [pay(bank.publicKey(), '1')], { signers: [mallory] });
    assert.deepEqual((await rejected(wrongKey)).codes, { transaction: 'tx_bad_auth' });
    const unsigned = await build(alice, [pay(bank.publicKey(), '1')], { signers: [] });
    assert.deepEqual((await rejected(unsigned)).codes, { transaction: 'tx_bad_auth' });
    // The right key (so the right hint) over another network's hash: the signature itself must verify.
    const foreign = new TransactionBuilder(await server.loadAccount(alice.publicKey()), {
      fee: '100',
      networkPassphrase: 'Some Other Network',
    })
      .addOperation(pay(bank.publicKey(), '1'))
      .setTimeout(60)
      .build();
    foreign.sign(alice);
    assert.deepEqual((await rejected(foreign)).codes, { transaction: 'tx_bad_auth' });

    // An operation with its own source needs that account's signature too.
    const borrowed = await build(alice, [
      pay(bank.publicKey(), '1'),
      pay(alice.publicKey(), '5', undefined, bob.publicKey()),
    ]);
    const { codes, result } = await rejected(borrowed);
    assert.deepEqual(codes, { transaction: 'tx_failed', operations: ['op_success', 'op_bad_auth'] });
    assert.equal(result.result.type, 'txFailed');

    const extra = await build(alice, [pay(bank.publicKey(), '1')], { signers: [alice, bob] });
    assert.deepEqual((await rejected(extra)).codes, { transaction: 'tx_bad_auth_extra' });

    // None of that was charged; with both signatures the two-source transaction goes through.
    assert.equal(await native(alice.publicKey()), 50_0000000n);
    const both = await build(alice, [pay(alice.publicKey(), '5', undefined, bob.publicKey())], {
      signers: [alice, bob],
    });
    assert.equal((await submit(both)).successful, true);
    assert.equal(await native(alice.publicKey()), 55_0000000n - 100n);
    assert.equal(await native(bob.publicKey()), 45_0000000n);
  });

  it('rejects a transaction without operations (tx_missing_operation)', async () => {
    const alice = await fund('50');
    const account = await server.loadAccount(alice.publicKey());
    const v1 = new xdr.TransactionV1Envelope({
      tx: new xdr.Transaction({
        sourceAccount: alice.xdrMuxedAccount(),
        fee: 100,
        seqNum: BigInt(account.sequence) + 1n,
        cond: xdr.Preconditions.precondTime(new xdr.TimeBounds({ minTime: 0n, maxTime: BigInt(now() + 60) })),
        memo: xdr.Memo.memoNone(),
        operations: [],
        ext: xdr.TransactionExt.v0(),
      }),
      signatures: [],
    });
    const tx = new Transaction(xdr.TransactionEnvelope.envelopeTypeTx(v1), networkPassphrase);
    tx.sign(alice);
    assert.deepEqual((await rejected(tx)).codes, { transaction: 'tx_missing_operation' });
  });

  it('rejects an unknown source account (tx_no_source_account)', async () => {
    const ghost = Keypair.random();
    const tx = await build(ghost, [pay(bank.publicKey(), '1')], {
      account: new Account(ghost.publicKey(), '0'),
    });
    const { codes, result } = await rejected(tx);
    assert.deepEqual(codes, { transaction: 'tx_no_source_account' });
    assert.equal(result.result.type, 'txNoAccount');
  });

  it('rejects a fee the source cannot pay above its reserve (tx_insufficient_balance)', async () => {
    const poor = await fund('1.000005');
    const tx = await build(poor, [pay(bank.publicKey(), '0.00001')], { fee: '100' });
    assert.deepEqual((await rejected(tx)).codes, { transaction: 'tx_insufficient_balance' });
  });

  it('fails unsupported operations with op_not_supported, before charging anything', async () => {
    const alice = await fund('50');
    const tx = await build(alice, [Operation.manageData({ name: 'k', value: 'v' })]);
    assert.deepEqual((await rejected(tx)).codes, {
      transaction: 'tx_failed',
      operations: ['op_not_supported'],
    });
    assert.equal(await native(alice.publicKey()), 50_0000000n);
  });
});

describe('local ledger: operations', () => {
  it('rolls back every operation when one fails, yet charges the fee and consumes the sequence', async () => {
    const alice = await fund('100');
    const bob = await fund('10');
    const tx = await build(alice, [pay(bob.publicKey(), '10'), pay(bob.publicKey(), '95')]);
    const { codes, result } = await rejected(tx);
    assert.deepEqual(codes, { transaction: 'tx_failed', operations: ['op_success', 'op_underfunded'] });
    assert.equal(result.result.type, 'txFailed');
    assert.equal(result.feeCharged, 200n);
    assert.equal(await native(bob.publicKey()), 10_0000000n);
    assert.equal(await native(alice.publicKey()), 100_0000000n - 200n);
    assert.equal(await sequence(alice.publicKey()), BigInt(tx.sequence));

    // The failed transaction is in a ledger: found by hash, and listed only when failures are asked for.
    const hash = hex(tx.hash());
    const found = await server.transactions().transaction(hash).call();
    assert.equal(found.successful, false);
    assert.equal(found.fee_charged, '200');
    const ops = await server
      .operations()
      .forAccount(alice.publicKey())
      .includeFailed(true)
      .order('desc')
      .call();
    assert.deepEqual(
      ops.records.slice(0, 2).map((op) => [op.type, op.transaction_successful]),
      [
        ['payment', false],
        ['payment', false],
      ],
    );
    // Without includeFailed only the successful create_account remains, not the two failed payments.
    const successfulOnly = await server.operations().forAccount(alice.publicKey()).call();
    assert.deepEqual(
      successfulOnly.records.map((op) => [op.type, op.transaction_successful]),
      [['create_account', true]],
    );
  });

  it('keeps the XLM reserve: (2 + subentries) × base reserve', async () => {
    const alice = await fund('10');
    const all = await build(alice, [pay(bank.publicKey(), '9')]);
    assert.deepEqual((await rejected(all)).codes, {
      transaction: 'tx_failed',
      operations: ['op_underfunded'],
    });
    // 10 - 0.00001 (first fee) - 0.00001 (this fee) - 1 (reserve) is exactly spendable.
    assert.equal((await submit(await build(alice, [pay(bank.publicKey(), '8.9999800')]))).successful, true);
    assert.equal(await native(alice.publicKey()), 1_0000000n);
  });

  it('creates accounts (op_already_exists, op_low_reserve, op_underfunded)', async () => {
    const alice = await fund('20');
    const newcomer = Keypair.random();
    const exists = await build(alice, [
      Operation.createAccount({ destination: bank.publicKey(), startingBalance: '5' }),
    ]);
    assert.deepEqual((await rejected(exists)).codes, {
      transaction: 'tx_failed',
      operations: ['op_already_exists'],
    });
    const low = await build(alice, [
      Operation.createAccount({ destination: newcomer.publicKey(), startingBalance: '0.9999999' }),
    ]);
    assert.deepEqual((await rejected(low)).codes, {
      transaction: 'tx_failed',
      operations: ['op_low_reserve'],
    });
    const tooMuch = await build(alice, [
      Operation.createAccount({ destination: newcomer.publicKey(), startingBalance: '19.5' }),
    ]);
    assert.deepEqual((await rejected(tooMuch)).codes, {
      transaction: 'tx_failed',
      operations: ['op_underfunded'],
    });
    const res = await submit(
      await build(alice, [
        Operation.createAccount({ destination: newcomer.publicKey(), startingBalance: '1' }),
      ]),
    );
    const created = await server.loadAccount(newcomer.publicKey());
    assert.equal(created.sequence, String(BigInt(res.ledger) << 32n));
    assert.equal(created.balances.at(-1)?.balance, '1.0000000');
  });

  it('adds, updates and removes trustlines (op_no_issuer, op_invalid_limit, op_low_reserve)', async () => {
    const carol = await fund('10');
    await trust(carol, USD, '50');
    let account = await server.loadAccount(carol.publicKey());
    assert.equal(account.subentry_count, 1);
    assert.equal(
      account.balances[0] && 'limit' in account.balances[0] && account.balances[0].limit,
      '50.0000000',
    );

    const noIssuer = await build(carol, [
      Operation.changeTrust({ asset: new Asset('GHOST', Keypair.random().publicKey()) }),
    ]);
    assert.deepEqual((await rejected(noIssuer)).codes, {
      transaction: 'tx_failed',
      operations: ['op_no_issuer'],
    });

    await submit(await build(issuer, [pay(carol.publicKey(), '20', USD)]));
    const belowBalance = await build(carol, [Operation.changeTrust({ asset: USD, limit: '19' })]);
    assert.deepEqual((await rejected(belowBalance)).codes, {
      transaction: 'tx_failed',
      operations: ['op_invalid_limit'],
    });
    const removeHeld = await build(carol, [Operation.changeTrust({ asset: USD, limit: '0' })]);
    assert.deepEqual((await rejected(removeHeld)).codes, {
      transaction: 'tx_failed',
      operations: ['op_invalid_limit'],
    });
    const removeMissing = await build(carol, [Operation.changeTrust({ asset: EURO, limit: '0' })]);
    assert.deepEqual((await rejected(removeMissing)).codes, {
      transaction: 'tx_failed',
      operations: ['op_invalid_limit'],
    });

    await trust(carol, USD, '100');
    account = await server.loadAccount(carol.publicKey());
    assert.equal(
      account.balances[0] && 'limit' in account.balances[0] && account.balances[0].limit,
      '100.0000000',
    );
    await submit(await build(carol, [pay(issuer.publicKey(), '20', USD)]));
    await trust(carol, USD, '0');
    account = await server.loadAccount(carol.publicKey());
    assert.equal(account.subentry_count, 0);
    assert.equal(account.balances.length, 1);

    // A second subentry needs 0.5 XLM more than this account keeps.
    const thin = await fund('1.4');
    const low = await build(thin, [Operation.changeTrust({ asset: USD })]);
    assert.deepEqual((await rejected(low)).codes, {
      transaction: 'tx_failed',
      operations: ['op_low_reserve'],
    });
  });

  it('moves credit assets (op_no_trust, op_line_full, op_src_no_trust, op_underfunded, op_no_destination)', async () => {
    const carol = await fund('20');
    const dave = await fund('20');
    await trust(carol, USD, '50');

    const full = await build(issuer, [pay(carol.publicKey(), '60', USD)]);
    assert.deepEqual((await rejected(full)).codes, {
      transaction: 'tx_failed',
      operations: ['op_line_full'],
    });
    // The issuer mints by paying and burns by being paid.
    await submit(await build(issuer, [pay(carol.publicKey(), '40', USD)]));
    assert.equal(await credit(carol.publicKey(), USD), 40_0000000n);

    const noTrust = await build(issuer, [pay(dave.publicKey(), '1', USD)]);
    assert.deepEqual((await rejected(noTrust)).codes, {
      transaction: 'tx_failed',
      operations: ['op_no_trust'],
    });
    const srcNoTrust = await build(dave, [pay(carol.publicKey(), '1', USD)]);
    assert.deepEqual((await rejected(srcNoTrust)).codes, {
      transaction: 'tx_failed',
      operations: ['op_src_no_trust'],
    });
    const overdraw = await build(carol, [pay(issuer.publicKey(), '41', USD)]);
    assert.deepEqual((await rejected(overdraw)).codes, {
      transaction: 'tx_failed',
      operations: ['op_underfunded'],
    });
    const nowhere = await build(carol, [pay(Keypair.random().publicKey(), '1')]);
    assert.deepEqual((await rejected(nowhere)).codes, {
      transaction: 'tx_failed',
      operations: ['op_no_destination'],
    });

    await submit(await build(carol, [pay(issuer.publicKey(), '10', USD)]));
    assert.equal(await credit(carol.publicKey(), USD), 30_0000000n);
    const lines = await server.loadAccount(issuer.publicKey());
    assert.equal(lines.balances.length, 1, 'an issuer holds no trustline to its own asset');
  });
});

describe('local ledger: fee bumps', () => {
  it('charges the fee source, applies the inner transaction and finds it by either hash', async () => {
    const alice = await fund('50');
    const bob = await fund('10');
    const inner = await build(alice, [pay(bob.publicKey(), '5')]);
    const bump = TransactionBuilder.buildFeeBumpTransaction(sponsor, '200', inner, networkPassphrase);
    bump.sign(sponsor);
    const sponsorBefore = await native(sponsor.publicKey());

    const res = await submit(bump);
    assert.equal(res.successful, true);
    assert.equal(res.hash, hex(bump.hash()));
    assert.equal(res.fee_account, sponsor.publicKey());
    assert.equal(res.source_account, alice.publicKey());
    assert.equal(res.fee_charged, '200');
    assert.equal(res.max_fee, '400');
    assert.deepEqual(res.fee_bump_transaction, {
      hash: hex(bump.hash()),
      signatures: bump.signatures.map((s) => Buffer.from(s.signature.toBytes()).toString('base64')),
    });
    assert.equal(res.inner_transaction?.hash, hex(inner.hash()));
    assert.equal(res.inner_transaction?.max_fee, '100');
    const result = xdr.TransactionResult.fromXdr(res.result_xdr, 'base64');
    assert.equal(result.result.type, 'txFeeBumpInnerSuccess');
    if (result.result.type === 'txFeeBumpInnerSuccess') {
      assert.equal(hex(result.result.innerResultPair.transactionHash.toBytes()), hex(inner.hash()));
      assert.equal(result.result.innerResultPair.result.result.type, 'txSuccess');
    }

    assert.equal(await native(sponsor.publicKey()), sponsorBefore - 200n);
    assert.equal(await native(alice.publicKey()), 45_0000000n);
    assert.equal(await sequence(alice.publicKey()), BigInt(inner.sequence));

    const byOuter = await server.transactions().transaction(hex(bump.hash())).call();
    assert.equal(byOuter.hash, hex(bump.hash()));
    const byInner = await server.transactions().transaction(hex(inner.hash())).call();
    assert.equal(byInner.hash, hex(inner.hash()));
    assert.equal(byInner.ledger_attr, res.ledger);
    assert.deepEqual(
      byInner.signatures,
      inner.signatures.map((s) => Buffer.from(s.signature.toBytes()).toString('base64')),
    );
  });

  it('reports an inner failure as tx_fee_bump_inner_failed, still charging the fee source', async () => {
    const alice = await fund('20');
    const inner = await build(alice, [pay(bank.publicKey(), '500')]);
    const bump = TransactionBuilder.buildFeeBumpTransaction(sponsor, '100', inner, networkPassphrase);
    bump.sign(sponsor);
    const sponsorBefore = await native(sponsor.publicKey());
    const { codes, result } = await rejected(bump);
    assert.deepEqual(codes, {
      transaction: 'tx_fee_bump_inner_failed',
      inner_transaction: 'tx_failed',
      operations: ['op_underfunded'],
    });
    assert.equal(result.result.type, 'txFeeBumpInnerFailed');
    assert.equal(await native(sponsor.publicKey()), sponsorBefore - 200n);
    assert.equal(await native(alice.publicKey()), 20_0000000n);
    assert.equal(await sequence(alice.publicKey()), BigInt(inner.sequence));
    const found = await server.transactions().transaction(hex(inner.hash())).call();
    assert.equal(found.successful, false);

    // An inner transaction that is not valid at all never enters a ledger: nobody pays.
    const stale = await build(alice, [pay(bank.publicKey(), '1')], {
      account: new Account(alice.publicKey(), String(BigInt(inner.sequence) - 1n)),
    });
    const staleBump = TransactionBuilder.buildFeeBumpTransaction(sponsor, '100', stale, networkPassphrase);
    staleBump.sign(sponsor);
    assert.deepEqual((await rejected(staleBump)).codes, {
      transaction: 'tx_fee_bump_inner_failed',
      inner_transaction: 'tx_bad_seq',
    });
    assert.equal(await native(sponsor.publicKey()), sponsorBefore - 200n);
  });

  it('validates the bump itself (tx_insufficient_fee, tx_bad_auth)', async () => {
    const alice = await fund('20');
    const inner = await build(alice, [pay(bank.publicKey(), '1')]);
    // Below base fee × (operations + 1); the SDK's builder refuses to make one, so assemble the XDR.
    const innerEnvelope = inner.toEnvelope();
    assert.equal(innerEnvelope.type, 'envelopeTypeTx');
    if (innerEnvelope.type !== 'envelopeTypeTx') return;
    const cheap = new FeeBumpTransaction(
      xdr.TransactionEnvelope.envelopeTypeTxFeeBump(
        new xdr.FeeBumpTransactionEnvelope({
          tx: new xdr.FeeBumpTransaction({
            feeSource: sponsor.xdrMuxedAccount(),
            fee: 150n,
            innerTx: xdr.FeeBumpTransactionInnerTx.envelopeTypeTx(innerEnvelope.v1),
            ext: xdr.FeeBumpTransactionExt.v0(),
          }),
          signatures: [],
        }),
      ),
      networkPassphrase,
    );
    cheap.sign(sponsor);
    assert.deepEqual((await rejected(cheap)).codes, { transaction: 'tx_insufficient_fee' });

    const unsigned = TransactionBuilder.buildFeeBumpTransaction(sponsor, '100', inner, networkPassphrase);
    assert.deepEqual((await rejected(unsigned)).codes, { transaction: 'tx_bad_auth' });
  });
});

describe('local ledger: idempotent submission', () => {
  it('answers a resubmitted hash from history without applying it again', async () => {
    const alice = await fund('50');
    const bob = await fund('10');
    const tx = await build(alice, [pay(bob.publicKey(), '3')]);
    const first = await server.submitTransaction(tx);
    const again = await server.submitTransaction(tx);
    assert.deepEqual(again, first);
    assert.equal(await native(bob.publicKey()), 13_0000000n);

    const failing = await build(alice, [pay(bob.publicKey(), '1000')]);
    const once = await rejected(failing);
    const twice = await rejected(failing);
    assert.deepEqual(twice.data, once.data);
    assert.equal(await native(alice.publicKey()), 47_0000000n - 200n, 'the failed one was charged once');
  });

  it('applies a submission whose response was dropped; the hash then finds it', async () => {
    const alice = await fund('50');
    const bob = await fund('10');
    const tx = await build(alice, [pay(bob.publicKey(), '7')]);
    ledger.dropNextSubmissionResponse();
    await assert.rejects(server.submitTransaction(tx), (error: unknown) => {
      assert.ok(!(error instanceof TransactionFailedError), 'no HTTP answer at all');
      return true;
    });
    const found = await server.transactions().transaction(hex(tx.hash())).call();
    assert.equal(found.successful, true);
    assert.equal(await native(bob.publicKey()), 17_0000000n);
    const retried = await submit(tx);
    assert.equal(retried.ledger, found.ledger_attr);
    assert.equal(await native(bob.publicKey()), 17_0000000n);
  });

  it('answers an undecodable envelope with transaction_malformed and accepts JSON bodies', async () => {
    const url = `${ledger.url}/transactions`;
    await assert.rejects(server.httpClient.post(url, 'tx=AAAAnotxdr'), (error: unknown) => {
      const response = (error as { response: { status: number; data: { type: string }; headers: Headers } })
        .response;
      assert.equal(response.status, 400);
      assert.equal(response.data.type, 'https://stellar.org/horizon-errors/transaction_malformed');
      assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
      return true;
    });
    const alice = await fund('10');
    const tx = await build(alice, [pay(bank.publicKey(), '1')]);
    const res = await server.httpClient.post(url, { tx: tx.toXDR() });
    assert.equal((res.data as TxResponse).hash, hex(tx.hash()));
  });
});

describe('local ledger: liquidity pools', () => {
  // Genesis reserves: XLM/USD 10000/5000, USD/EUROTOKEN 5000/4000. This block runs before any other trade.
  let xlmReserve = 10_000_0000000n;
  let usdReserve = 5000_0000000n;

  it('quotes and executes a direct strict-send path payment at the constant-product price', async () => {
    const carol = await fund('50');
    await trust(carol, USD);
    const amount = 100_0000000n;
    const expected = poolOut(xlmReserve, usdReserve, amount);
    const quote = await server.strictSendPaths(Asset.native(), '100', [USD]).call();
    assert.equal(quote.records.length, 1);
    assert.deepEqual(
      { ...quote.records[0] },
      {
        source_asset_type: 'native',
        source_amount: '100.0000000',
        destination_asset_type: 'credit_alphanum4',
        destination_asset_code: 'USD',
        destination_asset_issuer: issuer.publicKey(),
        destination_amount: quote.records[0]?.destination_amount,
        path: [],
      },
    );
    assert.equal(stroops(quote.records[0]?.destination_amount ?? ''), expected);

    const op = Operation.pathPaymentStrictSend({
      sendAsset: Asset.native(),
      sendAmount: '100',
      destination: carol.publicKey(),
      destAsset: USD,
      destMin: quote.records[0]?.destination_amount ?? '0',
    });
    const res = await submit(await build(trader, [op]));
    assert.equal(await credit(carol.publicKey(), USD), expected);
    const result = xdr.TransactionResult.fromXdr(res.result_xdr, 'base64').result;
    // Asserted, not tested with `if`: a result of another shape must fail here, not skip the checks.
    assert.ok(result.type === 'txSuccess', result.type);
    const opResult = result.results[0];
    assert.ok(opResult?.type === 'opInner', opResult?.type);
    assert.ok(opResult.tr.type === 'pathPaymentStrictSend', opResult.tr.type);
    const strictSend = opResult.tr.pathPaymentStrictSendResult;
    assert.ok(strictSend.type === 'pathPaymentStrictSendSuccess', strictSend.type);
    assert.equal(strictSend.success.last.amount, expected);
    assert.equal(strictSend.success.offers[0]?.type, 'claimAtomTypeLiquidityPool');
    xlmReserve += amount;
    usdReserve -= expected;

    // The reserves moved, so the same quote is now worse, exactly as the formula says.
    const again = await server.strictSendPaths(Asset.native(), '100', [USD]).call();
    assert.equal(
      stroops(again.records[0]?.destination_amount ?? ''),
      poolOut(xlmReserve, usdReserve, amount),
    );

    const payments = await server.payments().forAccount(carol.publicKey()).order('desc').limit(1).call();
    const record = payments.records[0] as unknown as Record<string, unknown>;
    assert.equal(record.type, 'path_payment_strict_send');
    assert.equal(record.source_amount, '100.0000000');
    assert.equal(stroops(String(record.amount)), expected);
    assert.equal(record.source_asset_type, 'native');
  });

  it('fails below the destination minimum (op_under_dest_min) and without a pool (op_too_few_offers)', async () => {
    const carol = await fund('50');
    await trust(carol, USD);
    await trust(carol, EURO);
    const quoted = poolOut(xlmReserve, usdReserve, 10_0000000n);
    const greedy = Operation.pathPaymentStrictSend({
      sendAsset: Asset.native(),
      sendAmount: '10',
      destination: carol.publicKey(),
      destAsset: USD,
      destMin:
        ((quoted + 1n) / 10_000_000n).toString() +
        '.' +
        ((quoted + 1n) % 10_000_000n).toString().padStart(7, '0'),
    });
    assert.deepEqual((await rejected(await build(trader, [greedy]))).codes, {
      transaction: 'tx_failed',
      operations: ['op_under_dest_min'],
    });
    const direct = Operation.pathPaymentStrictSend({
      sendAsset: Asset.native(),
      sendAmount: '10',
      destination: carol.publicKey(),
      destAsset: EURO,
      destMin: '0.0000001',
    });
    assert.deepEqual((await rejected(await build(trader, [direct]))).codes, {
      transaction: 'tx_failed',
      operations: ['op_too_few_offers'],
    });
    const noTrust = Operation.pathPaymentStrictSend({
      sendAsset: Asset.native(),
      sendAmount: '10',
      destination: bank.publicKey(),
      destAsset: USD,
      destMin: '0.0000001',
    });
    assert.deepEqual((await rejected(await build(trader, [noTrust]))).codes, {
      transaction: 'tx_failed',
      operations: ['op_no_trust'],
    });
  });

  it('finds and pays one-hop paths through a shared asset', async () => {
    const carol = await fund('50');
    await trust(carol, EURO);
    const viaUsd = poolOut(xlmReserve, usdReserve, 10_0000000n);
    const expected = poolOut(5000_0000000n, 4000_0000000n, viaUsd);
    const byAssets = await server.strictSendPaths(Asset.native(), '10', [EURO]).call();
    assert.equal(byAssets.records.length, 1);
    assert.deepEqual(byAssets.records[0]?.path, [
      { asset_type: 'credit_alphanum4', asset_code: 'USD', asset_issuer: issuer.publicKey() },
    ]);
    assert.equal(stroops(byAssets.records[0]?.destination_amount ?? ''), expected);

    // Asked by destination account: every asset carol can hold that a path reaches.
    const byAccount = await server.strictSendPaths(Asset.native(), '10', carol.publicKey()).call();
    assert.deepEqual(
      byAccount.records.map((r) => r.destination_asset_code),
      [EURO.getCode()],
    );

    const op = Operation.pathPaymentStrictSend({
      sendAsset: Asset.native(),
      sendAmount: '10',
      destination: carol.publicKey(),
      destAsset: EURO,
      destMin: byAssets.records[0]?.destination_amount ?? '0',
      path: [USD],
    });
    await submit(await build(trader, [op]));
    assert.equal(await credit(carol.publicKey(), EURO), expected);
  });
});

describe('local ledger: account history', () => {
  it('pages payments, operations, effects and transactions with cursors in both orders', async () => {
    const holder = await fund('10');
    for (let i = 1; i <= 5; i += 1) await submit(await build(bank, [pay(holder.publicKey(), String(i))]));

    const first = await server.payments().forAccount(holder.publicKey()).limit(2).call();
    assert.deepEqual(
      first.records.map((r) => [
        r.type,
        'amount' in r ? r.amount : 'starting_balance' in r ? r.starting_balance : '',
      ]),
      [
        ['create_account', '10.0000000'],
        ['payment', '1.0000000'],
      ],
    );
    const second = await first.next();
    assert.deepEqual(
      second.records.map((r) => ('amount' in r ? r.amount : '')),
      ['2.0000000', '3.0000000'],
    );
    const third = await second.next();
    assert.deepEqual(
      third.records.map((r) => ('amount' in r ? r.amount : '')),
      ['4.0000000', '5.0000000'],
    );
    assert.equal((await third.next()).records.length, 0);
    const back = await second.prev();
    assert.deepEqual(
      back.records.map((r) => r.paging_token),
      first.records.map((r) => r.paging_token).reverse(),
    );

    const cursor = first.records[1]?.paging_token ?? '';
    const fromCursor = await server.payments().forAccount(holder.publicKey()).cursor(cursor).limit(10).call();
    assert.equal(fromCursor.records.length, 4);
    const newest = await server.payments().forAccount(holder.publicKey()).order('desc').limit(1).call();
    assert.equal(
      'amount' in (newest.records[0] ?? {}) && (newest.records[0] as { amount: string }).amount,
      '5.0000000',
    );
    const tokens = (await server.payments().forAccount(holder.publicKey()).limit(200).call()).records.map(
      (r) => BigInt(r.paging_token),
    );
    assert.deepEqual(
      tokens,
      [...tokens].sort((a, b) => (a < b ? -1 : 1)),
    );

    const operations = await server.operations().forAccount(holder.publicKey()).order('desc').limit(3).call();
    assert.equal(operations.records.length, 3);
    assert.ok(
      operations.records.every((op) => op.transaction_successful && op.source_account === bank.publicKey()),
    );

    const effects = await server.effects().forAccount(holder.publicKey()).limit(200).call();
    assert.deepEqual(
      effects.records.map((e) => e.type),
      ['account_created', 'signer_created', ...Array(5).fill('account_credited')],
    );
    const nextEffects = await server
      .effects()
      .forAccount(holder.publicKey())
      .cursor(effects.records[1]?.paging_token ?? '')
      .limit(1)
      .call();
    assert.equal(nextEffects.records[0]?.type, 'account_credited');

    const transactions = await server.transactions().forAccount(holder.publicKey()).limit(200).call();
    assert.equal(transactions.records.length, 6);
    const ofTransaction = await transactions.records[1]?.operations();
    assert.equal(ofTransaction?.records[0]?.type, 'payment');

    await assert.rejects(
      server.payments().forAccount(holder.publicKey()).limit(201).call(),
      (error: unknown) => {
        assert.ok(error instanceof NetworkError);
        const data = error.response as unknown as { type: string; extras: { invalid_field: string } };
        assert.equal(data.type, 'https://stellar.org/horizon-errors/bad_request');
        assert.equal(data.extras.invalid_field, 'limit');
        return true;
      },
    );
  });

  it('joins each operation’s transaction when asked (join=transactions), as Horizon does', async () => {
    const holder = await fund('10');
    await submit(await build(bank, [pay(holder.publicKey(), '1')], { memo: Memo.text('joined') }));
    const operations = (join: string) =>
      fetch(`${ledger.url}/accounts/${holder.publicKey()}/operations${join}`).then(async (response) => ({
        status: response.status,
        // biome-ignore lint/suspicious/noExplicitAny: Horizon records are asserted on member by member.
        records: (response.ok ? ((await response.json()) as any)._embedded.records : []) as any[],
      }));
    const joined = await operations('?join=transactions');
    const payment = joined.records.find((op: { type: string }) => op.type === 'payment');
    assert.equal(payment.transaction.hash, payment.transaction_hash);
    assert.deepEqual([payment.transaction.memo_type, payment.transaction.memo], ['text', 'joined']);
    const plain = await operations('');
    assert.ok(plain.records.every((op: object) => !('transaction' in op)));
    const wrong = await operations('?join=effects');
    assert.equal(wrong.status, 400);
  });
});
