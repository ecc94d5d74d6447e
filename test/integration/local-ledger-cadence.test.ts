// The local ledger keeping time: ledgers that close on a cadence (a submission waits for its ledger, like
// Horizon's synchronous endpoint), stellar-core's one-transaction-per-source queue rule, and the ledger's
// own clock against time bounds. Closes are driven by hand (a 30 s cadence that never fires during a
// test, plus closeLedgerNow and POST /_admin/close) wherever timing would otherwise decide the outcome.
import assert from 'node:assert/strict';
import { Account, Asset, Keypair, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { classifySubmissionError } from '../../lib/ledger/result-codes.ts';
import {
  failure,
  hex,
  now,
  startTestLedger,
  stroops,
  type TestLedger,
  waitFor,
} from '../support/local-ledger.ts';

const bank = Keypair.random();
const sponsor = Keypair.random();
const pay = (destination: string, amount = '1') =>
  Operation.payment({ destination, amount, asset: Asset.native() });

let manual: TestLedger;
let fast: TestLedger;

beforeAll(async () => {
  const genesis = {
    accounts: [
      { publicKey: bank.publicKey(), nativeBalance: '1000000' },
      // 1 XLM of reserve and 300 stroops for fees: one fee bump's worth, not two.
      { publicKey: sponsor.publicKey(), nativeBalance: '1.0000300' },
    ],
  };
  [manual, fast] = await Promise.all([
    startTestLedger({ genesis, closeIntervalMs: 30_000 }),
    startTestLedger({ genesis, closeIntervalMs: 200 }),
  ]);
});

afterAll(async () => {
  await Promise.all([manual?.stop(), fast?.stop()]);
});

/** Opens accounts on `on` in one ledger (closing it by hand when the ledger has a cadence). */
async function open(on: TestLedger, count: number, startingBalance = '100'): Promise<Keypair[]> {
  const keys = Array.from({ length: count }, () => Keypair.random());
  const tx = await on.build(
    bank,
    keys.map((k) => Operation.createAccount({ destination: k.publicKey(), startingBalance })),
  );
  const answer = on.submit(tx);
  if (on === manual) {
    await on.untilPending(hex(tx.hash()));
    await on.ledger.closeLedgerNow();
  }
  await answer;
  return keys;
}

const latestSequence = async (on: TestLedger) => (await on.server.root()).history_latest_ledger;

describe('local ledger cadence', () => {
  it('closes ledgers on its own timer, empty ones included, and answers a submission once its ledger closed', async () => {
    assert.equal(fast.ledger.closeIntervalMs, 200);
    const first = await latestSequence(fast);
    await waitFor(async () => (await latestSequence(fast)) >= first + 2, 'two empty ledgers');
    // Closed with nothing submitted: empty ledgers, on the timer alone.
    for (const sequence of [first + 1, first + 2]) {
      const closed = await fast.http(`/ledgers/${sequence}`);
      assert.equal(closed.status, 200, `ledger ${sequence}`);
      assert.equal(closed.body.successful_transaction_count + closed.body.failed_transaction_count, 0);
    }
    const [alice] = await open(fast, 1);
    assert.ok(alice);
    const tx = await fast.build(alice, [pay(bank.publicKey())]);
    const res = await fast.submit(tx);
    assert.equal(res.successful, true);
    // Answered once its ledger had closed: that ledger and the transaction in it are already served.
    const closed = await fast.http(`/ledgers/${res.ledger}`);
    assert.equal(closed.status, 200);
    assert.equal(closed.body.successful_transaction_count, 1);
    const found = await fast.http(`/transactions/${hex(tx.hash())}`);
    assert.equal(found.status, 200);
    assert.equal(found.body.ledger, res.ledger);
  });

  it('keeps its cadence whatever a close costs: each close is due one interval after the last was', async () => {
    // The next close as the ledger plans it, read until five closes have gone by on the timer alone.
    const due: number[] = [];
    await waitFor(async () => {
      const at = Date.parse((await fast.http('/_admin/status')).body.nextCloseAt);
      if (due.at(-1) !== at) due.push(at);
      return due.length >= 6;
    }, 'five timed closes');
    // Scheduled from when the last close finished, each interval would grow by the close's own time.
    assert.deepEqual(
      due.slice(1).map((at, i) => at - (due[i] as number)),
      [200, 200, 200, 200, 200],
    );
  });

  it('holds a submission until its ledger closes: its hash is a 404 while pending, found after', async () => {
    const [alice] = await open(manual, 1);
    assert.ok(alice);
    const before = await latestSequence(manual);
    const tx = await manual.build(alice, [pay(bank.publicKey(), '5')]);
    const hash = hex(tx.hash());
    let answered = false;
    const answer = manual.submit(tx).finally(() => {
      answered = true;
    });
    await manual.untilPending(hash);
    const lookup = await manual.http(`/transactions/${hash}`);
    assert.equal(lookup.status, 404);
    assert.equal(lookup.headers.get('latest-ledger'), String(before));
    // Validated against state + pool, but nothing applied yet.
    assert.equal(
      (await manual.server.loadAccount(alice.publicKey())).sequence,
      String(BigInt(tx.sequence) - 1n),
    );
    assert.equal(answered, false);

    // Resubmitting the same envelope while it waits joins it (core's DUPLICATE), and gets the same answer.
    const again = manual.submit(tx);
    const closed = await manual.http('/_admin/close', { method: 'POST' });
    assert.equal(closed.status, 200);
    assert.equal(closed.body.sequence, before + 1);
    assert.equal(closed.body.transactionCount, 1);
    const res = await answer;
    assert.equal(res.successful, true);
    assert.equal(res.ledger, before + 1);
    assert.equal((await again).hash, res.hash);
    const found = await manual.server.transactions().transaction(hash).call();
    assert.equal(found.ledger_attr, before + 1);
    assert.equal(await manual.pending().then((p) => p.length), 0);
  });

  it('refuses a second transaction of one source in the same ledger with try-again-later (503)', async () => {
    const [alice] = await open(manual, 1);
    assert.ok(alice);
    const account = await manual.server.loadAccount(alice.publicKey());
    const first = await manual.build(alice, [pay(bank.publicKey())], { account });
    const second = await manual.build(alice, [pay(bank.publicKey())], { account });
    assert.equal(BigInt(second.sequence), BigInt(first.sequence) + 1n);
    const landing = manual.submit(first);
    await manual.untilPending(hex(first.hash()));

    const refused = await failure(manual.submit(second));
    assert.equal(refused.status, 503);
    assert.equal(refused.type, 'https://stellar.org/horizon-errors/transaction_try_again_later');
    assert.deepEqual(refused.codes, { transaction: 'tx_try_again_later' });
    assert.equal(refused.data.extras.tx_status, 'TRY_AGAIN_LATER');
    assert.equal(refused.data.extras.hash, hex(second.hash()));
    const verdict = classifySubmissionError(refused.error);
    assert.equal(verdict.errorCode, 'LEDGER_TX_TRY_AGAIN_LATER');
    assert.equal(verdict.action, 'lookup');
    const raw = await manual.http('/transactions', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ tx: second.toXDR() }),
    });
    assert.equal(raw.status, 503);
    assert.ok(Number(raw.headers.get('retry-after')) >= 1);
    assert.deepEqual(await manual.pending(), [hex(first.hash())]);

    // Once the first one's ledger has closed, the same envelope goes in.
    await manual.ledger.closeLedgerNow();
    await landing;
    const answer = manual.submit(second);
    await manual.untilPending(hex(second.hash()));
    await manual.ledger.closeLedgerNow();
    assert.equal((await answer).successful, true);
  });

  it('applies a ledger in arrival order, one transaction index each', async () => {
    const [a, b, c] = await open(manual, 3);
    assert.ok(a && b && c);
    const txs = await Promise.all([a, b, c].map((k) => manual.build(k, [pay(bank.publicKey())])));
    const answers: Promise<{ ledger: number; paging_token: string }>[] = [];
    for (const tx of txs) {
      answers.push(manual.submit(tx));
      await manual.untilPending(hex(tx.hash()));
    }
    await manual.ledger.closeLedgerNow();
    const results = await Promise.all(answers);
    assert.equal(new Set(results.map((r) => r.ledger)).size, 1);
    const ids = results.map((r) => BigInt(r.paging_token));
    assert.deepEqual(
      ids.map((id) => (id >> 12n) & 0xfffffn),
      [1n, 2n, 3n],
    );
    const ledger = await manual.server
      .ledgers()
      .ledger(results[0]?.ledger ?? 0)
      .call();
    assert.equal(
      (ledger as unknown as { successful_transaction_count: number }).successful_transaction_count,
      3,
    );
  });

  it('judges the fee source against the fees already queued (tx_insufficient_balance)', async () => {
    const [a, b] = await open(manual, 2);
    assert.ok(a && b);
    const bump = async (inner: Keypair) => {
      const tx = await manual.build(inner, [pay(bank.publicKey())]);
      const fb = TransactionBuilder.buildFeeBumpTransaction(sponsor, '100', tx, tx.networkPassphrase);
      fb.sign(sponsor);
      return fb;
    };
    const first = await bump(a);
    const landing = manual.submit(first);
    await manual.untilPending(hex(first.hash()));
    const second = await failure(manual.submit(await bump(b)));
    assert.equal(second.status, 400);
    assert.deepEqual(second.codes, { transaction: 'tx_insufficient_balance' });
    await manual.ledger.closeLedgerNow();
    assert.equal((await landing).fee_charged, '200');
    const left = (await manual.server.loadAccount(sponsor.publicKey())).balances.at(-1)?.balance ?? '';
    assert.equal(stroops(left), 1_0000100n);
  });
});

describe('local ledger clock', () => {
  it('refuses what would expire before the next expected close (last close + cadence) with tx_too_late', async () => {
    const [alice] = await open(manual, 1);
    assert.ok(alice);
    await manual.ledger.closeLedgerNow(); // the next close is now 30 s away
    const soon = await manual.build(alice, [pay(bank.publicKey())], { timeout: 5 });
    assert.deepEqual((await failure(manual.submit(soon))).codes, { transaction: 'tx_too_late' });
    const later = await manual.build(alice, [pay(bank.publicKey())], { timeout: 45 });
    const answer = manual.submit(later);
    await manual.untilPending(hex(later.hash()));
    await manual.ledger.closeLedgerNow();
    assert.equal((await answer).successful, true);
  });

  it('closes on the ledger clock: a pending transaction whose ledger closes after its maxTime is left out', async () => {
    const clocked = await startTestLedger({
      genesis: { accounts: [{ publicKey: bank.publicKey(), nativeBalance: '1000' }] },
      closeIntervalMs: 30_000,
    });
    try {
      const tx = await clocked.build(bank, [pay(sponsor.publicKey())], { timeout: 60 });
      const answer = failure(clocked.submit(tx));
      await clocked.untilPending(hex(tx.hash()));
      // The gateway's clock is now 2 minutes behind the network's.
      clocked.ledger.setClockOffsetMs(120_000);
      await clocked.ledger.closeLedgerNow();
      const refused = await answer;
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.codes, { transaction: 'tx_too_late' });
      assert.equal((await clocked.http(`/transactions/${hex(tx.hash())}`)).status, 404);
      assert.equal((await clocked.server.loadAccount(bank.publicKey())).sequence, String(1n << 32n));

      const latest = (await clocked.server.ledgers().order('desc').limit(1).call()).records[0];
      const closedAt = Date.parse(latest?.closed_at ?? '') / 1000;
      assert.ok(Math.abs(closedAt - (now() + 120)) <= 2, 'closed at the ledger clock');
      // The Date header follows the ledger clock, so the SDK's fetchTimebounds does too.
      const bounds = await clocked.server.fetchTimebounds(10);
      assert.ok(Math.abs(bounds.maxTime - (now() + 130)) <= 2);

      // Set back through the admin route: close times never go back.
      const set = await clocked.http('/_admin/clock', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ offsetMs: 0 }),
      });
      assert.equal(set.status, 200);
      assert.equal(set.body.offsetMs, 0);
      await clocked.ledger.closeLedgerNow();
      const next = (await clocked.server.ledgers().order('desc').limit(1).call()).records[0];
      assert.equal(next?.closed_at, latest?.closed_at);
      assert.equal(
        (await clocked.http('/_admin/clock', { method: 'POST', body: '{"offsetMs":1.5}' })).status,
        400,
      );
    } finally {
      await clocked.stop();
    }
  });

  it('starts behind the gateway when asked: a transaction valid from now is tx_too_early', async () => {
    const behind = await startTestLedger({
      genesis: {
        accounts: [
          { publicKey: bank.publicKey(), nativeBalance: '1000' },
          { publicKey: sponsor.publicKey(), nativeBalance: '10' },
        ],
      },
      clockOffsetMs: -120_000,
    });
    try {
      const early = await behind.build(bank, [pay(sponsor.publicKey())], {
        timebounds: { minTime: now(), maxTime: now() + 60 },
      });
      assert.deepEqual((await failure(behind.submit(early))).codes, { transaction: 'tx_too_early' });
      const genesis = (await behind.server.ledgers().ledger(1).call()) as unknown as { closed_at: string };
      assert.ok(Math.abs(Date.parse(genesis.closed_at) / 1000 - (now() - 120)) <= 2);
      // Immediate closes on the ledger clock: the SDK's own time bounds (from the Date header) fit.
      const account = new Account(bank.publicKey(), String(1n << 32n));
      const bounds = await behind.server.fetchTimebounds(60);
      const fits = await behind.build(bank, [pay(sponsor.publicKey())], { account, timebounds: bounds });
      assert.equal((await behind.submit(fits)).successful, true);
    } finally {
      await behind.stop();
    }
  });
});
