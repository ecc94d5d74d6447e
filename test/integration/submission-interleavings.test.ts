// The interleavings a review of submitOnce found (issue #7, §1), each replayed deterministically against
// the real local ledger (with a close cadence and injected faults) and DynamoDB Local: every test counts
// what reached the ledger for its intent, and it is exactly one payment.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Asset, FeeBumpTransaction, Keypair, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, beforeEach, describe, it } from 'vitest';
import { resetConfig } from '../../lib/config.ts';
import { platformLedgerAccount } from '../../lib/ledger/load-account.ts';
import type { BuildContext, BuildTransaction } from '../../lib/ledger/submit.ts';
import { type LocalLedger, startLocalLedger } from '../../local/ledger/index.ts';

type Submit = typeof import('../../lib/ledger/submit.ts');
type Submissions = typeof import('../../lib/ledger/submissions.ts');

/**
 * Ledgers close when a test says so (closeLedgerNow): the interleavings are placed by hand. The cadence
 * is still below an envelope's 60 s validity, or the queue would refuse every envelope as too late
 * for the next expected close.
 */
const MANUAL_CLOSES_MS = 45_000;
const FAST = { pauseMs: 20, maxRounds: 12 };

describe('submitOnce under the interleavings of a real network', () => {
  let ledger: LocalLedger;
  let submit: Submit;
  let submissions: Submissions;
  const payer = Keypair.random();
  const channel = Keypair.random();

  const horizon = async (path: string) => {
    const response = await fetch(`${ledger.url}${path}`);
    // biome-ignore lint/suspicious/noExplicitAny: Horizon resources are asserted on field by field.
    return { status: response.status, body: (await response.json()) as any };
  };
  const sequenceOf = async (account: string) => BigInt((await horizon(`/accounts/${account}`)).body.sequence);
  const xlmOf = async (account: string) =>
    (await horizon(`/accounts/${account}`)).body.balances.find(
      (b: { asset_type: string }) => b.asset_type === 'native',
    )?.balance as string;

  /** An account of its own for each test (in genesis: ledgers close only by hand here). */
  const payees = Array.from({ length: 8 }, () => Keypair.random().publicKey());
  const newPayee = async () => {
    const payee = payees.pop();
    assert.ok(payee);
    return payee;
  };
  const paymentsTo = async (payee: string) =>
    (await horizon(`/accounts/${payee}/payments?limit=200`)).body._embedded.records.filter(
      (p: { type: string; from: string }) => p.type === 'payment' && p.from === payer.publicKey(),
    ).length;
  /**
   * What reached the payee, counted after one more close: an extra envelope still queued when the
   * outcome came would land in it, and must be counted too.
   */
  const paymentsLandedTo = async (payee: string) => {
    await ledger.closeLedgerNow();
    return paymentsTo(payee);
  };

  /** Pays 1 XLM from `payer`, its transaction's source `source` (the payer itself, or a channel). */
  const payment = (
    payee: string,
    options: {
      source?: Keypair;
      before?: (ctx: BuildContext) => Promise<void>;
      after?: (ctx: BuildContext) => Promise<void>;
    } = {},
  ) => {
    const source = options.source ?? payer;
    const builds: BuildContext[] = [];
    const build: BuildTransaction = async (ctx) => {
      builds.push(ctx);
      await options.before?.(ctx);
      const loaded = await platformLedgerAccount(ctx.environment, source.publicKey(), 'source');
      const tx = new TransactionBuilder(submit.sourceAccountFor(ctx, loaded), {
        fee: submit.baseFeeFor(ctx.feeLevel),
        networkPassphrase: ctx.networkPassphrase,
        timebounds: submit.timeBoundsFor(ctx.now),
      })
        .addOperation(
          Operation.payment({
            source: payer.publicKey(),
            destination: payee,
            asset: Asset.native(),
            amount: '1',
          }),
        )
        .build();
      tx.sign(payer);
      if (source !== payer) tx.sign(source);
      await options.after?.(ctx);
      return tx;
    };
    return { build, builds };
  };

  beforeAll(async () => {
    ledger = await startLocalLedger({
      port: 0,
      networkPassphrase: `Interleavings ; ${randomUUID()}`,
      closeIntervalMs: MANUAL_CLOSES_MS,
      genesis: {
        accounts: [
          { publicKey: payer.publicKey(), nativeBalance: '100000' },
          { publicKey: channel.publicKey(), nativeBalance: '100' },
          ...payees.map((publicKey) => ({ publicKey, nativeBalance: '10000' })),
        ],
      },
    });
    process.env.HORIZON_URL_SANDBOX = ledger.url;
    process.env.NETWORK_PASSPHRASE_SANDBOX = ledger.networkPassphrase;
    process.env.LEDGER_TIMEOUT_MS = '2000';
    resetConfig();
    submit = await import('../../lib/ledger/submit.ts');
    submissions = await import('../../lib/ledger/submissions.ts');
  });

  beforeEach(() => {
    ledger.faults.clear();
    ledger.setClockOffsetMs(0);
  });

  afterAll(async () => {
    await ledger?.stop();
  });

  it('1. looks every envelope up again: h1 queued, its resubmission refused for its fee, h2 on the same sequence; h1 lands', async () => {
    const payee = await newPayee();
    const intentId = `interleaving-1:${randomUUID()}`;
    const sequence = await sequenceOf(payer.publicKey());
    // h1 joins the queue but its answer is lost; resubmitted, a busy node refuses it for its fee.
    ledger.faults.set({
      submissionAnswer: { mode: 'drop' },
      rejectResubmission: { code: 'tx_insufficient_fee' },
    });
    const pay = payment(payee, {
      // Once h2 (same sequence, higher fee) is built, the ledger closes with h1 in it: h2 meets tx_bad_seq.
      after: async (ctx) => {
        if (ctx.attempt === 2) await ledger.closeLedgerNow();
      },
    });
    const outcome = await submit.submitOnce({ environment: 'sandbox', intentId, build: pay.build, ...FAST });

    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
    assert.equal(pay.builds.length, 2, 'h2 was built');
    assert.deepEqual(pay.builds[1]?.reuse, { source: payer.publicKey(), sequence: String(sequence + 1n) });
    assert.equal(pay.builds[1]?.feeLevel, 2, 'refused for its fee: the replacement offers more');
    await ledger.closeLedgerNow();
    assert.equal(await paymentsLandedTo(payee), 1);
    assert.equal(await sequenceOf(payer.publicKey()), sequence + 1n);
    const record = await submissions.findSubmission('sandbox', intentId);
    assert.equal(record?.envelopes.length, 2);
    assert.equal(outcome.hash, record?.envelopes[0]?.hash, 'the outcome is h1, the envelope that landed');
  });

  it("2. a node's verdict lapses with its envelope: after adopting another worker's replacement, no rebuild on the old verdict", async () => {
    const payee = await newPayee();
    const intentId = `interleaving-2:${randomUUID()}`;
    const sequence = await sequenceOf(payer.publicKey());
    // Worker A's h1 is refused for its fee by a busy node. While A builds its replacement, worker B
    // replaces h1 with its own h2 (same sequence) and wins the conditional write; h2 is queued and lands.
    ledger.faults.set({ rejectResubmission: { code: 'tx_insufficient_fee', anySubmission: true } });
    const workerB = payment(payee);
    const workerA = payment(payee, {
      before: async (ctx) => {
        if (ctx.attempt !== 2) return;
        const current = await submissions.findSubmission('sandbox', intentId);
        assert.ok(current?.hash);
        const h2 = await workerB.build({ ...ctx, now: new Date() });
        assert.ok(h2);
        const inner = h2 instanceof FeeBumpTransaction ? h2.innerTransaction : h2;
        const ref = {
          hash: Buffer.from(h2.hash()).toString('hex'),
          source: inner.source,
          sequence: inner.sequence,
          maxTime: Number(inner.timeBounds?.maxTime),
        };
        const written = await submissions.replaceSubmission(
          {
            ...current,
            attempt: 2,
            hash: ref.hash,
            envelopeXdr: h2.toXDR(),
            maxTime: ref.maxTime,
            envelopes: [...current.envelopes, ref],
            updatedAt: new Date().toISOString(),
          },
          current.hash,
        );
        assert.equal(written.written, true);
        // B submits h2; it joins the queue, and the ledger closes with it a moment later.
        void fetch(`${ledger.url}/transactions`, {
          method: 'POST',
          body: new URLSearchParams({ tx: h2.toXDR() }),
        });
        setTimeout(() => void ledger.closeLedgerNow(), 300);
      },
    });
    const outcome = await submit.submitOnce({
      environment: 'sandbox',
      intentId,
      build: workerA.build,
      ...FAST,
    });

    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
    assert.equal(workerA.builds.length, 2, 'A built h1 and its lost replacement, nothing after adopting h2');
    assert.equal(await paymentsLandedTo(payee), 1);
    assert.equal(await sequenceOf(payer.publicKey()), sequence + 1n);
    const record = await submissions.findSubmission('sandbox', intentId);
    assert.equal(record?.envelopes.length, 2);
    assert.equal(outcome.hash, record?.envelopes[1]?.hash, "B's h2 landed");
  });

  it('3. proves expiry by ledger time: an envelope on channel C1 that expired unsubmitted is rebuilt on channel C2', async () => {
    const payee = await newPayee();
    const intentId = `interleaving-3:${randomUUID()}`;
    const longAgo = () => new Date(Date.now() - 200_000);
    const onChannel = payment(payee, { source: channel });
    const prepared = await submit.prepareSubmission({
      environment: 'sandbox',
      intentId,
      build: onChannel.build,
      now: longAgo,
    });
    assert.ok('envelopeXdr' in prepared);
    // The ledger must close past maxTime for the proof: its latest closed ledger does.
    await ledger.closeLedgerNow();
    const onPayer = payment(payee);
    const outcome = await submit.submitOnce({
      environment: 'sandbox',
      intentId,
      build: onPayer.build,
      ...FAST,
      maxRounds: 2,
    });
    assert.equal(outcome.status, 'pending', 'the new envelope waits for its ledger');
    await ledger.closeLedgerNow();
    const settled = await submit.submitOnce({
      environment: 'sandbox',
      intentId,
      build: onPayer.build,
      ...FAST,
    });

    assert.equal(settled.status, 'succeeded', JSON.stringify(settled));
    assert.equal(onPayer.builds.length, 1);
    assert.equal(onPayer.builds[0]?.reuse, undefined, 'a proven-dead envelope does not pin the sequence');
    assert.equal(onPayer.builds[0]?.feeLevel, 1, 'an expired envelope was not underpriced: same fee');
    assert.equal(await paymentsLandedTo(payee), 1);
    const record = await submissions.findSubmission('sandbox', intentId);
    assert.equal(record?.provenDead, 1);
    assert.deepEqual(
      record?.envelopes.map((e) => e.source),
      [channel.publicKey(), payer.publicKey()],
    );
  });

  it("4. never trusts a split read: the account shows the sequence consumed before the transaction is ingested, and the worker's clock is 200 s ahead", async () => {
    const payee = await newPayee();
    const intentId = `interleaving-4:${randomUUID()}`;
    const sequence = await sequenceOf(payer.publicKey());
    const pay = payment(payee);
    const prepared = await submit.prepareSubmission({ environment: 'sandbox', intentId, build: pay.build });
    assert.ok('envelopeXdr' in prepared && prepared.hash);
    // h1 lands, but this Horizon has not ingested its ledger: look-ups answer 404 while the account
    // (another replica) already shows the sequence consumed.
    ledger.faults.set({ ingestDelayMs: 60_000, accountsIngestDelayMs: 0 });
    const landed = fetch(`${ledger.url}/transactions`, {
      method: 'POST',
      body: new URLSearchParams({ tx: prepared.envelopeXdr ?? '' }),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await ledger.closeLedgerNow();
    assert.equal((await landed).status, 200);
    assert.equal(await sequenceOf(payer.publicKey()), sequence + 1n);
    // The worker's clock says h1 expired long ago; only the ledger's time counts, and the source's own
    // history (one answer) shows h1 consumed the sequence: it is the outcome, nothing is rebuilt.
    const ahead = () => new Date(Date.now() + 200_000);
    const outcome = await submit.submitOnce({
      environment: 'sandbox',
      intentId,
      build: pay.build,
      now: ahead,
      ...FAST,
    });

    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
    assert.equal(outcome.hash, prepared.hash);
    assert.equal(pay.builds.length, 1, 'nothing rebuilt');
    ledger.faults.clear();
    assert.equal(await paymentsLandedTo(payee), 1);
    assert.equal(await sequenceOf(payer.publicKey()), sequence + 1n);
  });

  it("5. writes failed only from a closed ledger: a node's rejection while a copy is still queued elsewhere leaves the intent pending, and the copy lands", async () => {
    const payee = await newPayee();
    const intentId = `interleaving-5:${randomUUID()}`;
    const pay = payment(payee);
    const prepared = await submit.prepareSubmission({ environment: 'sandbox', intentId, build: pay.build });
    assert.ok('envelopeXdr' in prepared);
    // A copy is queued at another node (submitted directly); this node refuses the resubmission.
    const queued = fetch(`${ledger.url}/transactions`, {
      method: 'POST',
      body: new URLSearchParams({ tx: prepared.envelopeXdr ?? '' }),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    ledger.faults.set({ rejectResubmission: { code: 'tx_too_late', count: 100 } });
    const outcome = await submit.submitOnce({
      environment: 'sandbox',
      intentId,
      build: pay.build,
      ...FAST,
      maxRounds: 3,
    });
    assert.equal(outcome.status, 'pending', JSON.stringify(outcome));
    ledger.faults.clear();
    await ledger.closeLedgerNow();
    await queued;
    const settled = await submit.submitOnce({ environment: 'sandbox', intentId, build: pay.build, ...FAST });

    assert.equal(settled.status, 'succeeded', JSON.stringify(settled));
    assert.equal(await paymentsLandedTo(payee), 1);
  });

  it('5b. fails an intent whose envelopes are all proven dead after a terminal rejection', async () => {
    const payee = await newPayee();
    const intentId = `interleaving-5b:${randomUUID()}`;
    const stranger = Keypair.random();
    // Signed by a key the payer never authorised: every node refuses it, and it can never land.
    const badAuth: BuildTransaction = async (ctx) => {
      const tx = new TransactionBuilder(
        submit.sourceAccountFor(
          ctx,
          await platformLedgerAccount(ctx.environment, payer.publicKey(), 'source'),
        ),
        {
          fee: '100',
          networkPassphrase: ctx.networkPassphrase,
          timebounds: submit.timeBoundsFor(ctx.now),
        },
      )
        .addOperation(Operation.payment({ destination: payee, asset: Asset.native(), amount: '1' }))
        .build();
      tx.sign(stranger);
      return tx;
    };
    const first = await submit.submitOnce({
      environment: 'sandbox',
      intentId,
      build: badAuth,
      ...FAST,
      maxRounds: 2,
    });
    assert.equal(first.status, 'pending', 'a rejection alone does not fail the intent');
    // The ledger's clock moves past the envelope's maxTime (the worker's does not): proven expired.
    ledger.setClockOffsetMs(120_000);
    await ledger.closeLedgerNow();
    const settled = await submit.submitOnce({ environment: 'sandbox', intentId, build: badAuth, ...FAST });
    assert.equal(settled.status, 'failed', JSON.stringify(settled));
    assert.equal(settled.status === 'failed' && settled.errorCode, 'LEDGER_TX_BAD_AUTH');
    assert.equal(await paymentsLandedTo(payee), 0);
    assert.equal(await xlmOf(payee), '10000.0000000');
  });
});
