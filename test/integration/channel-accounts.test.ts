// Channel accounts (issue #9 §3) against the real local ledger and DynamoDB Local: the wallet operations
// build on leased channels, a wallet's payments no longer wait on its own sequence number, a busy pool
// builds nothing, a channel with an envelope in flight is never leased again, and an intent whose
// envelope expired moves to another channel under the expiry proof. The pool (2 channels) lives in a
// table of this file's own, so no other test's submissions lease it.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Asset, Keypair, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { resetConfig } from '../../lib/config.ts';
import type { BuildTransaction } from '../../lib/ledger/submit.ts';
import { type LocalLedger, startLocalLedger } from '../../local/ledger/index.ts';
import { useOwnTable } from '../../local/stack.ts';

type Operations = typeof import('../../lib/ledger/operations.ts');
type Channels = typeof import('../../lib/ledger/channels.ts');
type Submissions = typeof import('../../lib/ledger/submissions.ts');
type Custody = typeof import('../../lib/ledger/custody.ts');
type Submit = typeof import('../../lib/ledger/submit.ts');

/** Ledgers close when a test says so; still below an envelope's 60 s validity (see the interleavings). */
const MANUAL_CLOSES_MS = 45_000;
const FAST = { pauseMs: 20, maxRounds: 3 };
const POOL = 2;

describe('channel accounts', () => {
  let ledger: LocalLedger;
  let operations: Operations;
  let channels: Channels;
  let submissions: Submissions;
  let custody: Custody;
  let submit: Submit;
  let payer: Awaited<ReturnType<Custody['newAccountKeys']>>;
  let pool: string[];
  const payees = Array.from({ length: 6 }, () => Keypair.random().publicKey());

  const horizon = async (path: string) => {
    const response = await fetch(`${ledger.url}${path}`);
    // biome-ignore lint/suspicious/noExplicitAny: Horizon resources are asserted on field by field.
    return { status: response.status, body: (await response.json()) as any };
  };
  const sequenceOf = async (account: string) => BigInt((await horizon(`/accounts/${account}`)).body.sequence);
  const paymentsTo = async (payee: string) =>
    (await horizon(`/accounts/${payee}/payments?limit=200`)).body._embedded.records.filter(
      (p: { type: string; from: string }) => p.type === 'payment' && p.from === payer.publicKey,
    ).length;
  const pendingPool = async () =>
    ((await horizon('/_admin/status')).body as { pending: string[] }).pending.length;
  const holders = async () => (await channels.channelPool('sandbox')).map((c) => c.holder ?? null);

  /** 1 XLM from the payer to `payee`, through the real wallet payment builder. */
  const pay = (payee: string, intentId: string, tuning: { now?: () => Date; maxRounds?: number } = {}) =>
    operations.pay({
      environment: 'sandbox',
      intentId,
      from: payer,
      to: payee,
      asset: 'native',
      amount: '1',
      ...FAST,
      ...tuning,
    });

  /** 1 XLM from the payer to `payee` on the leased channel (no fee bump), for prepareSubmission. */
  const onLeasedChannel =
    (payee: string): BuildTransaction =>
    async (ctx) => {
      const { account, signer } = ctx.channel ?? assert.fail('no channel');
      const tx = new TransactionBuilder(submit.sourceAccountFor(ctx, account), {
        fee: submit.baseFeeFor(ctx.feeLevel),
        networkPassphrase: ctx.networkPassphrase,
        timebounds: submit.timeBoundsFor(ctx.now),
      })
        .addOperation(
          Operation.payment({
            source: payer.publicKey,
            destination: payee,
            asset: Asset.native(),
            amount: '1',
          }),
        )
        .build();
      tx.sign(await custody.openSecret('sandbox', signer.publicKey, signer.sealedSecret));
      tx.sign(await custody.openSecret('sandbox', payer.publicKey, payer.sealedSecret));
      return tx;
    };

  beforeAll(async () => {
    await useOwnTable('test-channel-accounts');
    process.env.LEDGER_CHANNELS = String(POOL);
    resetConfig();
    custody = await import('../../lib/ledger/custody.ts');
    const platform = await import('../../lib/ledger/platform-accounts.ts');
    channels = await import('../../lib/ledger/channels.ts');
    const funding = await platform.ensurePlatformAccount('sandbox', 'funding');
    pool = (await channels.ensureChannelKeys('sandbox', POOL)).map((c) => c.publicKey);
    payer = await custody.newAccountKeys('sandbox');
    ledger = await startLocalLedger({
      port: 0,
      networkPassphrase: `Channel accounts ; ${randomUUID()}`,
      closeIntervalMs: MANUAL_CLOSES_MS,
      genesis: {
        accounts: [
          { publicKey: funding.publicKey, nativeBalance: '100000' },
          { publicKey: payer.publicKey, nativeBalance: '1000' },
          ...pool.map((publicKey) => ({ publicKey, nativeBalance: '10' })),
          ...payees.map((publicKey) => ({ publicKey, nativeBalance: '100' })),
        ],
      },
    });
    process.env.HORIZON_URL_SANDBOX = ledger.url;
    process.env.NETWORK_PASSPHRASE_SANDBOX = ledger.networkPassphrase;
    process.env.LEDGER_TIMEOUT_MS = '1000';
    resetConfig();
    operations = await import('../../lib/ledger/operations.ts');
    submit = await import('../../lib/ledger/submit.ts');
    submissions = await import('../../lib/ledger/submissions.ts');
  });

  afterAll(async () => {
    await ledger?.stop();
  });

  it("puts one wallet's payments in one ledger, each on its own channel; the pool is then free", async () => {
    const [a = '', b = ''] = payees;
    const payerSequence = await sequenceOf(payer.publicKey);
    const first = [pay(a, `channels-1a:${randomUUID()}`), pay(b, `channels-1b:${randomUUID()}`)];
    const waiting = await Promise.all(first);
    assert.deepEqual(
      waiting.map((o) => o.status),
      ['pending', 'pending'],
    );
    assert.equal(await pendingPool(), 2, 'both wait in the queue at once: no shared sequence number');
    await ledger.closeLedgerNow();
    const settled = await Promise.all([
      pay(a, waiting[0]?.intentId ?? ''),
      pay(b, waiting[1]?.intentId ?? ''),
    ]);

    assert.deepEqual(
      settled.map((o) => o.status),
      ['succeeded', 'succeeded'],
      JSON.stringify(settled),
    );
    const landed = await Promise.all(settled.map((o) => horizon(`/transactions/${o.hash}`)));
    assert.equal(landed[0]?.body.ledger, landed[1]?.body.ledger, 'the same ledger');
    assert.deepEqual(landed.map((t) => t.body.source_account).sort(), [...pool].sort());
    assert.equal(await sequenceOf(payer.publicKey), payerSequence, 'the wallet is only an operation source');
    assert.deepEqual([await paymentsTo(a), await paymentsTo(b)], [1, 1]);
    assert.deepEqual(await holders(), [null, null], 'released when settled');
  });

  it('builds nothing while every channel has an envelope in flight, then lands once', async () => {
    const [, , c = '', d = '', e = ''] = payees;
    const inFlight = await Promise.all([
      pay(c, `channels-2c:${randomUUID()}`),
      pay(d, `channels-2d:${randomUUID()}`),
    ]);
    assert.deepEqual(
      inFlight.map((o) => o.status),
      ['pending', 'pending'],
    );
    const third = `channels-2e:${randomUUID()}`;
    const busy = await pay(e, third);

    assert.equal(busy.status, 'pending');
    assert.equal(busy.status === 'pending' && busy.errorCode, 'LEDGER_CHANNELS_BUSY');
    assert.equal(await submissions.findSubmission('sandbox', third), undefined, 'nothing built or persisted');
    assert.equal(await pendingPool(), 2);
    assert.deepEqual((await holders()).sort(), inFlight.map((o) => o.intentId).sort());

    await ledger.closeLedgerNow();
    assert.equal((await pay(c, inFlight[0]?.intentId ?? '')).status, 'succeeded');
    assert.equal((await pay(d, inFlight[1]?.intentId ?? '')).status, 'succeeded');
    const waiting = await pay(e, third);
    assert.equal(waiting.status, 'pending', 'on a freed channel, waiting for its ledger');
    await ledger.closeLedgerNow();
    assert.equal((await pay(e, third)).status, 'succeeded');
    assert.deepEqual([await paymentsTo(c), await paymentsTo(d), await paymentsTo(e)], [1, 1, 1]);
  });

  it('takes over a lease only once the ledger closed past it, and moves the expired intent to another channel', async () => {
    const [f = ''] = payees.slice(5);
    // A worker whose clock is 200 s behind leases a channel and persists an envelope on it, then crashes
    // before submitting: by the ledger's clock, its lease and its envelope ran out long ago.
    const stranded = `channels-3a:${randomUUID()}`;
    const prepared = await submit.prepareSubmission({
      environment: 'sandbox',
      intentId: stranded,
      channel: true,
      now: () => new Date(Date.now() - 200_000),
      build: onLeasedChannel(f),
    });
    assert.ok('envelopeXdr' in prepared && prepared.status === 'submitting');
    const strandedChannel = prepared.envelopes[0]?.source;
    assert.deepEqual(
      (await holders()).filter((h) => h !== null),
      [stranded],
    );

    // Two other intents fill the pool: one the free channel, the other the stranded lease, which it may
    // take only because the ledger's latest closed ledger closed after that lease's maxTime.
    const others = await Promise.all([
      pay(f, `channels-3b:${randomUUID()}`),
      pay(f, `channels-3c:${randomUUID()}`),
    ]);
    assert.deepEqual(
      others.map((o) => o.status),
      ['pending', 'pending'],
      JSON.stringify(others),
    );
    assert.ok(!(await holders()).includes(stranded), 'the stranded lease was taken over');

    // The stranded intent resumes: its envelope is proven expired, but every channel is busy: it waits.
    assert.equal((await pay(f, stranded)).status, 'pending');
    assert.equal((await submissions.findSubmission('sandbox', stranded))?.envelopes.length, 1);
    await ledger.closeLedgerNow();
    for (const outcome of others) assert.equal((await pay(f, outcome.intentId)).status, 'succeeded');
    assert.equal((await pay(f, stranded)).status, 'pending');
    await ledger.closeLedgerNow();
    const landed = await pay(f, stranded);

    assert.equal(landed.status, 'succeeded', JSON.stringify(landed));
    const record = await submissions.findSubmission('sandbox', stranded);
    assert.equal(record?.envelopes.length, 2, 'one replacement, built after the expiry proof');
    assert.equal(record?.provenDead, 1);
    assert.ok(pool.includes(record?.envelopes[1]?.source ?? ''), `moved from ${strandedChannel}`);
    assert.equal(await paymentsTo(f), 3, 'each of the three intents exactly once');
    assert.deepEqual(await holders(), [null, null]);
  });

  it('a worker resuming after a crash between lease and persist builds on the channel it already holds', async () => {
    const [payee = ''] = payees;
    const intentId = `channels-4:${randomUUID()}`;
    const lease = await channels.leaseChannel('sandbox', intentId, submit.timeBoundsFor(new Date()).maxTime);
    assert.ok(lease);
    const before = await paymentsTo(payee);

    const waiting = await pay(payee, intentId);
    assert.equal(waiting.status, 'pending');
    const record = await submissions.findSubmission('sandbox', intentId);
    assert.equal(record?.envelopes[0]?.source, lease.publicKey, 'the channel it held');
    assert.equal((await holders()).filter((h) => h === intentId).length, 1, 'one lease, not two');
    await ledger.closeLedgerNow();
    assert.equal((await pay(payee, intentId)).status, 'succeeded');
    assert.equal(await paymentsTo(payee), before + 1);
  });

  it("a crash after the ledger's answer, before the record update: the resumed worker settles from the hash, sends nothing and frees the channel", async () => {
    const [payee = ''] = payees.slice(1);
    const intentId = `channels-5:${randomUUID()}`;
    const prepared = await submit.prepareSubmission({
      environment: 'sandbox',
      intentId,
      channel: true,
      build: onLeasedChannel(payee),
    });
    assert.ok('envelopeXdr' in prepared && prepared.envelopeXdr);
    const before = await paymentsTo(payee);
    // The worker sent it and the ledger answered (it closed with it); then the worker died.
    const sent = fetch(`${ledger.url}/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ tx: prepared.envelopeXdr }).toString(),
    });
    while ((await pendingPool()) === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await ledger.closeLedgerNow();
    assert.equal((await sent).status, 200);
    assert.equal(
      (await holders()).filter((h) => h === intentId).length,
      1,
      'still leased: the record says submitting',
    );

    const resumed = await submit.submitOnce({
      environment: 'sandbox',
      intentId,
      channel: true,
      build: () => assert.fail('nothing may be built: the envelope landed'),
      ...FAST,
    });
    assert.equal(resumed.status, 'succeeded', JSON.stringify(resumed));
    assert.equal(resumed.hash, prepared.hash);
    assert.equal(await paymentsTo(payee), before + 1);
    assert.deepEqual(await holders(), [null, null]);
  });
});
