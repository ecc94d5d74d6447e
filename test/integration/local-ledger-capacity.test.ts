// The local ledger at the size of a large channel pool (issue #24 §1): 256 transactions, each on a source
// account of its own and all paying from one account (as the gateway's channels carry one wallet's
// payments), fee-bumped by one funding account, wait in one pool and land in one close. Past the
// tx-set limit (stellar-core's operations per ledger) the rest waits for the next close, in arrival order.
// Closes are driven by hand (a cadence that never fires during a test). The time limits only stop a hung
// run: 256 envelopes' signatures are checked in JavaScript, slow on a shared machine.
const HUNG_MS = 240_000;

import assert from 'node:assert/strict';
import { Asset, Keypair, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import { afterAll, describe, it } from 'vitest';
import { hex, startTestLedger, type TestLedger, waitFor } from '../support/local-ledger.ts';

const TRANSACTIONS = 256;
const payer = Keypair.random();
const payee = Keypair.random();
const funding = Keypair.random();
const sources = Array.from({ length: TRANSACTIONS }, () => Keypair.random());
const genesis = {
  accounts: [
    { publicKey: payer.publicKey(), nativeBalance: '100000' },
    { publicKey: payee.publicKey(), nativeBalance: '10' },
    { publicKey: funding.publicKey(), nativeBalance: '100000' },
    ...sources.map((source) => ({ publicKey: source.publicKey(), nativeBalance: '10' })),
  ],
};
const ledgers: TestLedger[] = [];

afterAll(async () => {
  await Promise.all(ledgers.map((ledger) => ledger.stop()));
});

/** A ledger closing only when told, with one fee-bumped 1 XLM payment per source submitted and waiting. */
async function fullPool(options: { maxTxSetOperations?: number } = {}) {
  const on = await startTestLedger({ genesis, closeIntervalMs: 600_000, ...options });
  ledgers.push(on);
  const { networkPassphrase } = on.ledger;
  const envelopes = await Promise.all(
    sources.map(async (source) => {
      const inner = new TransactionBuilder(await on.server.loadAccount(source.publicKey()), {
        fee: '100',
        networkPassphrase,
      })
        .addOperation(
          Operation.payment({
            source: payer.publicKey(),
            destination: payee.publicKey(),
            asset: Asset.native(),
            amount: '1',
          }),
        )
        .setTimeout(600)
        .build();
      inner.sign(source, payer);
      const bump = TransactionBuilder.buildFeeBumpTransaction(funding, '200', inner, networkPassphrase);
      bump.sign(funding);
      return bump;
    }),
  );
  const answers = envelopes.map((tx) => on.submit(tx));
  await waitFor(async () => (await on.pending()).length === TRANSACTIONS, `${TRANSACTIONS} pending`, 150_000);
  return { on, answers, hashes: envelopes.map((tx) => hex(tx.hash())) };
}

describe(`the local ledger with ${TRANSACTIONS} transactions waiting`, () => {
  it(
    'closes them all in one ledger, one payer in every one of them',
    async () => {
      const { on, answers } = await fullPool();
      await on.ledger.closeLedgerNow();
      const landed = await Promise.all(answers);
      assert.ok(landed.every((answer) => answer.successful));
      assert.deepEqual([...new Set(landed.map((answer) => answer.ledger))], [landed[0]?.ledger]);
      const closed = await on.http(`/ledgers/${landed[0]?.ledger}`);
      assert.equal(closed.body.successful_transaction_count, TRANSACTIONS);
      assert.equal(closed.body.operation_count, TRANSACTIONS);
      assert.deepEqual(await on.pending(), []);
    },
    HUNG_MS,
  );

  it(
    'past the tx-set limit, keeps the rest for the next closes in arrival order, none lost',
    async () => {
      // 100 operations a ledger: 50 fee bumps (each its payment and the bump).
      const { on, answers, hashes } = await fullPool({ maxTxSetOperations: 100 });
      const pendingBefore = await on.pending();
      await on.ledger.closeLedgerNow();
      assert.deepEqual(await on.pending(), pendingBefore.slice(50), 'the first 50 to arrive went in');
      for (let close = 1; close < Math.ceil(TRANSACTIONS / 50); close++) await on.ledger.closeLedgerNow();
      const landed = await Promise.all(answers);
      assert.ok(landed.every((answer) => answer.successful));
      const perLedger = new Map<number, number>();
      for (const answer of landed) perLedger.set(answer.ledger, (perLedger.get(answer.ledger) ?? 0) + 1);
      assert.deepEqual([...perLedger.values()], [50, 50, 50, 50, 50, 6]);
      assert.equal(new Set(landed.map((answer) => answer.hash)).size, TRANSACTIONS);
      assert.deepEqual(new Set(landed.map((answer) => answer.hash)), new Set(hashes));
    },
    HUNG_MS,
  );
});
