// The local ledger misbehaving on demand: late and lost answers, resubmissions a busy node refuses while
// the original lands, a Horizon that ingests late (Latest-Ledger lagging, accounts ahead of history: the
// split read), a fleet that is down; plus Latest-Ledger on every answer and the admin routes' checks.
import assert from 'node:assert/strict';
import { Asset, Keypair, Operation, TransactionFailedError } from '@stellar/stellar-sdk';
import { afterAll, afterEach, beforeAll, describe, it } from 'vitest';
import { classifySubmissionError } from '../../lib/ledger/result-codes.ts';
import { failure, hex, startTestLedger, type TestLedger, waitFor } from '../support/local-ledger.ts';

const bank = Keypair.random();
const pay = (destination: string, amount = '1') =>
  Operation.payment({ destination, amount, asset: Asset.native() });

let ledger: TestLedger;
let pooled: TestLedger;

beforeAll(async () => {
  const genesis = { accounts: [{ publicKey: bank.publicKey(), nativeBalance: '1000000' }] };
  [ledger, pooled] = await Promise.all([
    startTestLedger({ genesis }),
    startTestLedger({ genesis, closeIntervalMs: 30_000 }),
  ]);
});

afterEach(() => {
  ledger.ledger.faults.clear();
  pooled.ledger.faults.clear();
});

afterAll(async () => {
  await Promise.all([ledger?.stop(), pooled?.stop()]);
});

async function fund(on: TestLedger = ledger): Promise<Keypair> {
  const keys = Keypair.random();
  const tx = await on.build(bank, [
    Operation.createAccount({ destination: keys.publicKey(), startingBalance: '100' }),
  ]);
  const answer = on.submit(tx);
  if (on === pooled) {
    await on.untilPending(hex(tx.hash()));
    await on.ledger.closeLedgerNow();
  }
  await answer;
  return keys;
}

const adminFaults = (on: TestLedger, method: string, body?: unknown) =>
  on.http('/_admin/faults', {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const sequenceOf = async (on: TestLedger, id: string) => BigInt((await on.server.loadAccount(id)).sequence);

describe('local ledger: Latest-Ledger', () => {
  it('is on every answer, 404s and refusals included, and follows the closes', async () => {
    const latest = (await ledger.server.root()).history_latest_ledger;
    for (const path of [
      '/',
      '/ledgers?order=desc&limit=1',
      `/accounts/${Keypair.random().publicKey()}`,
      '/nope',
    ]) {
      const res = await ledger.http(path);
      assert.equal(res.headers.get('latest-ledger'), String(latest), path);
    }
    const alice = await fund();
    const res = await ledger.http('/transactions', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ tx: (await ledger.build(alice, [pay(bank.publicKey())])).toXDR() }),
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('latest-ledger'), String(res.body.ledger));
    assert.equal(res.body.ledger, latest + 2);
  });
});

describe('local ledger faults: submission answers', () => {
  it('late: applies at once but answers delayMs later, for `count` submissions', async () => {
    const alice = await fund();
    ledger.ledger.faults.set({ submissionAnswer: { mode: 'late', delayMs: 300 } });
    assert.deepEqual(ledger.ledger.faults.current(), {
      submissionAnswer: { mode: 'late', delayMs: 300, count: 1 },
    });
    const tx = await ledger.build(alice, [pay(bank.publicKey())]);
    const started = Date.now();
    let answered = false;
    const answer = ledger.submit(tx).finally(() => {
      answered = true;
    });
    await waitFor(
      async () => (await ledger.http(`/transactions/${hex(tx.hash())}`)).status === 200,
      'applied',
    );
    assert.equal(answered, false, 'in the ledger before the answer comes');
    assert.equal((await answer).successful, true);
    assert.ok(Date.now() - started >= 300);
    assert.deepEqual(ledger.ledger.faults.current(), {}, 'used up');
  });

  it('drop: takes the submission and destroys the socket, `count` times; dropNextSubmissionResponse still works', async () => {
    const alice = await fund();
    const set = await adminFaults(ledger, 'POST', { submissionAnswer: { mode: 'drop', count: 2 } });
    assert.equal(set.status, 200);
    assert.deepEqual(set.body, { submissionAnswer: { mode: 'drop', count: 2 } });
    const sequence = await sequenceOf(ledger, alice.publicKey());
    for (let i = 1; i <= 2; i += 1) {
      const tx = await ledger.build(alice, [pay(bank.publicKey())]);
      await assert.rejects(ledger.submit(tx), (error: unknown) => !(error instanceof TransactionFailedError));
      assert.equal((await ledger.server.transactions().transaction(hex(tx.hash())).call()).successful, true);
    }
    assert.equal(await sequenceOf(ledger, alice.publicKey()), sequence + 2n);
    assert.equal((await ledger.submit(await ledger.build(alice, [pay(bank.publicKey())]))).successful, true);

    ledger.ledger.dropNextSubmissionResponse();
    assert.deepEqual(ledger.ledger.faults.current(), { submissionAnswer: { mode: 'drop', count: 1 } });
  });

  it('drop with a cadence: the envelope waits in the pool and lands at the close', async () => {
    const alice = await fund(pooled);
    pooled.ledger.faults.set({ submissionAnswer: { mode: 'drop' } });
    const tx = await pooled.build(alice, [pay(bank.publicKey())]);
    await assert.rejects(pooled.submit(tx));
    assert.deepEqual(await pooled.pending(), [hex(tx.hash())]);
    assert.equal((await pooled.http(`/transactions/${hex(tx.hash())}`)).status, 404);
    await pooled.ledger.closeLedgerNow();
    assert.equal((await pooled.server.transactions().transaction(hex(tx.hash())).call()).successful, true);
  });
});

describe('local ledger faults: refused resubmissions', () => {
  it('refuses a resubmission while the original waits, then lands the original', async () => {
    const alice = await fund(pooled);
    const tx = await pooled.build(alice, [pay(bank.publicKey(), '3')]);
    const hash = hex(tx.hash());
    const original = pooled.submit(tx);
    await pooled.untilPending(hash);
    pooled.ledger.faults.set({ rejectResubmission: { code: 'tx_insufficient_fee' } });
    const refused = await failure(pooled.submit(tx));
    assert.equal(refused.status, 400);
    assert.equal(refused.type, 'https://stellar.org/horizon-errors/transaction_failed');
    assert.deepEqual(refused.codes, { transaction: 'tx_insufficient_fee' });
    assert.equal(classifySubmissionError(refused.error).action, 'rebuild');
    assert.deepEqual(await pooled.pending(), [hash], 'the pending copy is untouched');
    await pooled.ledger.closeLedgerNow();
    const landed = await original;
    assert.equal(landed.successful, true);

    // Known from history: refused once with tx_too_late, then answered from history again.
    pooled.ledger.faults.set({ rejectResubmission: { code: 'tx_too_late' } });
    assert.deepEqual((await failure(pooled.submit(tx))).codes, { transaction: 'tx_too_late' });
    assert.equal((await pooled.submit(tx)).ledger, landed.ledger);
  });

  it('anySubmission: refuses new envelopes too, applying nothing, `count` times', async () => {
    const alice = await fund();
    await adminFaults(ledger, 'POST', {
      rejectResubmission: { code: 'tx_too_late', anySubmission: true, count: 2 },
    });
    const sequence = await sequenceOf(ledger, alice.publicKey());
    const tx = await ledger.build(alice, [pay(bank.publicKey())]);
    for (let i = 0; i < 2; i += 1)
      assert.deepEqual((await failure(ledger.submit(tx))).codes, { transaction: 'tx_too_late' });
    assert.equal(await sequenceOf(ledger, alice.publicKey()), sequence);
    assert.equal((await ledger.submit(tx)).successful, true);
  });
});

describe('local ledger faults: ingestion and availability', () => {
  it('ingests late: history and Latest-Ledger lag while accounts already show the new sequence', async () => {
    const alice = await fund();
    const before = (await ledger.server.root()).history_latest_ledger;
    ledger.ledger.faults.set({ ingestDelayMs: 400, accountsIngestDelayMs: 0 });
    const tx = await ledger.build(alice, [pay(bank.publicKey())]);
    const res = await ledger.submit(tx);
    assert.equal(res.ledger, before + 1);

    const lookup = await ledger.http(`/transactions/${res.hash}`);
    assert.equal(lookup.status, 404);
    assert.equal(lookup.headers.get('latest-ledger'), String(before));
    // The split read: the account's sequence is already past the transaction the lookup cannot find.
    assert.equal(await sequenceOf(ledger, alice.publicKey()), BigInt(tx.sequence));
    const root = await ledger.server.root();
    assert.equal(root.history_latest_ledger, before);
    assert.equal(root.core_latest_ledger, before + 1);
    assert.equal((await ledger.http(`/ledgers/${before + 1}`)).status, 404);
    const history = await ledger.server
      .transactions()
      .forAccount(alice.publicKey())
      .order('desc')
      .limit(1)
      .call();
    assert.notEqual(history.records[0]?.hash, res.hash);
    // The node itself knows it: a resubmission is answered from its history.
    assert.equal((await ledger.submit(tx)).hash, res.hash);

    await waitFor(async () => (await ledger.http(`/transactions/${res.hash}`)).status === 200, 'ingested');
    assert.equal((await ledger.http('/')).headers.get('latest-ledger'), String(before + 1));
  });

  it('ingests accounts late too (by default as late as history), until the faults are cleared', async () => {
    const alice = await fund();
    const sequence = await sequenceOf(ledger, alice.publicKey());
    ledger.ledger.faults.set({ ingestDelayMs: 60_000 });
    const tx = await ledger.build(alice, [pay(bank.publicKey())]);
    await ledger.submit(tx);
    const account = await ledger.server.loadAccount(alice.publicKey());
    assert.equal(BigInt(account.sequence), sequence, 'the account as the last ingested ledger left it');
    assert.equal(account.balances.at(-1)?.balance, '100.0000000');
    // The node validates against the newest state: the stale sequence is refused.
    const stale = await ledger.build(alice, [pay(bank.publicKey(), '2')], { account });
    assert.deepEqual((await failure(ledger.submit(stale))).codes, { transaction: 'tx_bad_seq' });

    const cleared = await adminFaults(ledger, 'DELETE');
    assert.deepEqual(cleared.body, {});
    assert.equal(await sequenceOf(ledger, alice.publicKey()), BigInt(tx.sequence));
    assert.equal((await ledger.http(`/transactions/${hex(tx.hash())}`)).status, 200);
  });

  it('unavailable: every Horizon route answers 503, the admin routes still work', async () => {
    const alice = await fund();
    const tx = await ledger.build(alice, [pay(bank.publicKey())]);
    await adminFaults(ledger, 'POST', { unavailable: true });
    for (const path of ['/', `/accounts/${alice.publicKey()}`, '/friendbot?addr=x']) {
      const res = await ledger.http(path);
      assert.equal(res.status, 503, path);
      assert.equal(res.body.type, 'https://stellar.org/horizon-errors/service_unavailable');
      assert.ok(res.headers.get('latest-ledger'));
    }
    const down = await failure(ledger.submit(tx));
    assert.equal(down.status, 503);
    assert.equal(classifySubmissionError(down.error).errorCode, 'LEDGER_UNAVAILABLE');
    assert.equal((await ledger.http('/_admin/status')).status, 200);
    await adminFaults(ledger, 'DELETE');
    assert.equal((await ledger.submit(tx)).successful, true);
  });

  it('checks the admin routes’ bodies and methods', async () => {
    const unknown = await adminFaults(ledger, 'POST', { bogus: 1 });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.extras.invalid_field, 'bogus');
    const missing = await adminFaults(ledger, 'POST', { submissionAnswer: { mode: 'late' } });
    assert.equal(missing.body.extras.invalid_field, 'submissionAnswer.delayMs');
    const code = await adminFaults(ledger, 'POST', { rejectResubmission: { code: 'tx_bad_seq' } });
    assert.equal(code.body.extras.invalid_field, 'rejectResubmission.code');
    assert.equal((await adminFaults(ledger, 'PUT', {})).status, 405);
    assert.equal((await ledger.http('/_admin/nothing')).status, 404);
    assert.equal((await ledger.http('/_admin/close')).status, 405);
    assert.throws(() => ledger.ledger.faults.set({ ingestDelayMs: -1 }), /ingestDelayMs/);
    assert.deepEqual(ledger.ledger.faults.current(), {});
  });
});
