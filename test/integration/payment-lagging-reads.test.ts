// Payments while the ledger's account reads lag behind it (issue #18 §0–§2), against a ledger of this
// file's own with the `accountsIngestDelayMs` fault (a Horizon replica a few ledgers behind: accounts,
// and so sequence numbers, balances and trustlines, as they were some seconds ago) and a table of its
// own (its channel pool is this file's alone, so a test can hold every channel but one).
//
// What must hold whatever the reads say: every payment that reports success is a transaction of its own
// on the ledger (no two intents share an envelope); the platform pays one reserve per trustline however
// many payments need it at once; a wallet the gateway opened is waited for, never failed on one read.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, afterEach, beforeAll, describe, it } from 'vitest';
import { resetConfig } from '../../lib/config.ts';
import type { AccountKeys } from '../../lib/ledger/custody.ts';
import type { PaymentLeg } from '../../lib/ledger/payments.ts';
import type { SubmissionOutcome } from '../../lib/ledger/submit.ts';
import type { LocalLedger } from '../../local/ledger/index.ts';
import { useOwnTable } from '../../local/stack.ts';
import { channelGenesis } from '../support/channels.ts';
import { type Json, stroops } from '../support/local-ledger.ts';

type Payments = typeof import('../../lib/ledger/payments.ts');
type Operations = typeof import('../../lib/ledger/operations.ts');
type Channels = typeof import('../../lib/ledger/channels.ts');

const LAG_MS = 3_000;
const FAST = { pauseMs: 100, maxRounds: 10 };

describe('payments while account reads lag behind the ledger', () => {
  let ledger: LocalLedger;
  let payments: Payments;
  let operations: Operations;
  let channels: Channels;
  let funding: string;
  let usdc: { code: string; issuer: string };
  const wallet = {} as Record<'payer' | 'payee' | 'crowded' | 'untrusting' | 'lagging', AccountKeys>;

  const horizon = async (path: string): Promise<Json> => (await fetch(`${ledger.url}${path}`)).json();
  /** Every payment operation into `account`, as the ledger's history has it (every lag cleared first). */
  const paymentsInto = async (account: string): Promise<Json[]> => {
    ledger.faults.clear();
    const page = await horizon(`/accounts/${account}/payments?limit=200`);
    return page._embedded.records.filter((op: Json) => op.to === account && op.type === 'payment');
  };
  const holdings = async (account: string): Promise<Record<string, bigint>> => {
    ledger.faults.clear();
    const { balances } = await horizon(`/accounts/${account}`);
    return Object.fromEntries(
      balances.map((line: Json) => [line.asset_code ?? 'XLM', stroops(line.balance)]),
    );
  };
  const leg = (from: AccountKeys, to: AccountKeys, amount = '1'): PaymentLeg => ({
    from,
    to: to.publicKey,
    custodialDestination: to,
    sendAsset: usdc,
    amount,
  });
  const pay = (
    legs: PaymentLeg[],
    extra: { intentId?: string; memo?: string; now?: () => Date; firstDelivery?: boolean } = {},
  ) =>
    payments.executePayment({
      environment: 'sandbox',
      intentId: `test-payment:${randomUUID()}`,
      legs,
      slippage: '0.01',
      ...FAST,
      ...extra,
    });
  /** As the ledger-submissions worker runs a payment: asked again (a re-queued message) while pending. */
  const settledPay = async (legs: PaymentLeg[], now?: () => Date): Promise<SubmissionOutcome[]> => {
    const intentId = `test-payment:${randomUUID()}`;
    const answers: SubmissionOutcome[] = [];
    for (let asked = 1; asked <= 30; asked++) {
      const outcome = await pay(legs, { intentId, ...(now ? { now } : {}) });
      answers.push(outcome);
      if (outcome.status !== 'pending') break;
      await new Promise((resolve) => setTimeout(resolve, 250)); // the re-queue's delay
    }
    return answers;
  };

  beforeAll(async () => {
    await useOwnTable('test-lagging-reads');
    process.env.LEDGER_TIMEOUT_MS = '1000';
    resetConfig();
    const custody = await import('../../lib/ledger/custody.ts');
    const platform = await import('../../lib/ledger/platform-accounts.ts');
    funding = (await platform.ensurePlatformAccount('sandbox', 'funding')).publicKey;
    usdc = { code: 'USDC', issuer: Keypair.random().publicKey() };
    for (const name of ['payer', 'payee', 'crowded', 'untrusting', 'lagging'] as const)
      wallet[name] = await custody.newAccountKeys('sandbox');
    const { startLocalLedger } = await import('../../local/ledger/index.ts');
    const usdcLine = (balance: string) => [{ asset: usdc, balance }];
    ledger = await startLocalLedger({
      port: 0,
      networkPassphrase: `Lagging reads ; ${randomUUID()}`,
      closeIntervalMs: 0,
      genesis: {
        accounts: [
          { publicKey: funding, nativeBalance: '100000' },
          { publicKey: usdc.issuer, nativeBalance: '100' },
          ...(await channelGenesis()),
          { publicKey: wallet.payer.publicKey, nativeBalance: '1.5', trustlines: usdcLine('1000') },
          { publicKey: wallet.payee.publicKey, nativeBalance: '1.5', trustlines: usdcLine('0') },
          { publicKey: wallet.crowded.publicKey, nativeBalance: '1.5', trustlines: usdcLine('0') },
          // Its reserve and nothing more: 2 base reserves, no trustline.
          { publicKey: wallet.untrusting.publicKey, nativeBalance: '1' },
          { publicKey: wallet.lagging.publicKey, nativeBalance: '1' },
        ],
      },
    });
    process.env.HORIZON_URL_SANDBOX = ledger.url;
    process.env.NETWORK_PASSPHRASE_SANDBOX = ledger.networkPassphrase;
    resetConfig();
    payments = await import('../../lib/ledger/payments.ts');
    operations = await import('../../lib/ledger/operations.ts');
    channels = await import('../../lib/ledger/channels.ts');
  });

  afterEach(() => {
    ledger.faults.clear();
  });

  afterAll(async () => {
    await ledger?.stop();
  });

  it('two intents that would build the same envelope on one channel each land a transaction of their own', async () => {
    // Every channel but one held elsewhere: both intents build on the same channel, in the same second,
    // with the same legs and memo, while the channel's account read still shows the first one's
    // sequence number as unused.
    const pool = await channels.channelPool('sandbox');
    const blockers = pool.slice(1).map((_, i) => `test-blocker:${i}:${randomUUID()}`);
    const blocked: string[] = [];
    for (const blocker of blockers) {
      const lease = await channels.leaseChannel('sandbox', blocker, Math.floor(Date.now() / 1000) + 3600);
      blocked.push(lease?.publicKey ?? assert.fail(`${blocker} leased nothing`));
    }
    try {
      ledger.faults.set({ accountsIngestDelayMs: 60_000 });
      const moment = new Date();
      const same = { memo: 'RENT-11', now: () => moment };
      const first = await pay([leg(wallet.payer, wallet.payee)], same);
      const second = await pay([leg(wallet.payer, wallet.payee)], same);
      assert.equal(first.status, 'succeeded', JSON.stringify(first));
      assert.equal(second.status, 'succeeded', JSON.stringify(second));
      assert.notEqual(second.hash, first.hash, 'the second intent took the first one’s transaction');

      const landed = await paymentsInto(wallet.payee.publicKey);
      assert.deepEqual(landed.map((op) => op.transaction_hash).sort(), [first.hash, second.hash].sort());
      assert.equal((await holdings(wallet.payee.publicKey)).USDC, stroops('2'));
    } finally {
      for (const [i, blocker] of blockers.entries())
        await channels.releaseChannels('sandbox', blocker, [blocked[i] as string]);
    }
  });

  it('24 concurrent payments into one wallet: 24 successes, 24 distinct transactions, 24 USDC arrived', async () => {
    ledger.faults.set({ accountsIngestDelayMs: LAG_MS });
    // One moment for every build (as when they all happen within one second): the same legs, no memo,
    // the same time bounds; a channel built on again while its read is stale meets its last envelope.
    const moment = new Date();
    const answers = await Promise.all(
      Array.from({ length: 24 }, () => settledPay([leg(wallet.payer, wallet.crowded)], () => moment)),
    );
    const outcomes = answers.map((asked) => asked.at(-1) as SubmissionOutcome);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      Array(24).fill('succeeded'),
      JSON.stringify(outcomes.filter((o) => o.status !== 'succeeded')),
    );
    const hashes = new Set(outcomes.map((o) => o.hash));
    assert.equal(hashes.size, 24);
    const landed = await paymentsInto(wallet.crowded.publicKey);
    assert.deepEqual(new Set(landed.map((op) => op.transaction_hash)), hashes);
    assert.equal((await holdings(wallet.crowded.publicKey)).USDC, stroops('24'));
  });

  it('a payment between wallets seen before reads no account, its channel not at all after a landing, its submission record once', async () => {
    // Counted as the requests leave the process (node:http, DynamoDB's and the ledger's; fetch would be
    // undici's), after a first payment that fills the process's caches (a channel's number by its
    // account; the wallets' accounts open, the payee's USDC trustline: seen-on-ledger.ts) and lands on
    // the channel the next one claims (issue #24 §2, issue #40).
    assert.equal((await pay([leg(wallet.payer, wallet.payee)])).status, 'succeeded');
    const calls: string[] = [];
    const onRequest = (message: unknown) => {
      const { request } = message as { request: ClientRequest };
      const target = request.getHeader('x-amz-target');
      calls.push(
        typeof target === 'string'
          ? target.replace(/^DynamoDB_\d{8}\./, 'DynamoDB.')
          : `${request.method} ${request.path.split('?')[0]}`,
      );
    };
    const onFetch = (message: unknown) => {
      const { method, path } = (message as { request: { method: string; path: string } }).request;
      calls.push(`fetch ${method} ${path.split('?')[0]}`);
    };
    subscribe('http.client.request.start', onRequest);
    subscribe('undici:request:create', onFetch);
    let outcome: SubmissionOutcome;
    try {
      outcome = await pay([leg(wallet.payer, wallet.payee)]);
    } finally {
      unsubscribe('http.client.request.start', onRequest);
      unsubscribe('undici:request:create', onFetch);
    }
    assert.equal(outcome.status, 'succeeded');
    const times = (call: string) => calls.filter((c) => c === call).length;
    // The channel it claimed was freed by the first payment, whose transaction landed on it: its sequence
    // number is known. No account is read, and nothing goes through fetch.
    assert.equal(calls.filter((c) => c.startsWith('GET /accounts/')).length, 0, calls.join('\n'));
    assert.equal(calls.filter((c) => c.startsWith('fetch ')).length, 0, calls.join('\n'));
    // The funding account's record and the intent's submission record: one read each.
    assert.equal(times('DynamoDB.GetItem'), 2, calls.join('\n'));
  });

  it('a first delivery reads no submission record; a second one for an intent that landed adopts it: one transaction', async () => {
    const getItems = async (run: () => Promise<SubmissionOutcome>) => {
      let count = 0;
      const onRequest = (message: unknown) => {
        const target = (message as { request: ClientRequest }).request.getHeader('x-amz-target');
        if (target === 'DynamoDB_20120810.GetItem') count += 1;
      };
      subscribe('http.client.request.start', onRequest);
      try {
        const outcome = await run();
        assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
        return { outcome, count };
      } finally {
        unsubscribe('http.client.request.start', onRequest);
      }
    };
    const asked = await getItems(() => pay([leg(wallet.payer, wallet.payee)]));
    const intentId = `test-payment:${randomUUID()}`;
    const first = await getItems(() =>
      pay([leg(wallet.payer, wallet.payee)], { intentId, firstDelivery: true }),
    );
    assert.equal(first.count, asked.count - 1, 'the submission record is not read');
    const before = (await paymentsInto(wallet.payee.publicKey)).length;
    // The stream (or the reconciler) sends the record's message again: a first delivery of its own.
    const again = await getItems(() =>
      pay([leg(wallet.payer, wallet.payee)], { intentId, firstDelivery: true }),
    );
    assert.equal(again.outcome.hash, first.outcome.hash);
    assert.equal((await paymentsInto(wallet.payee.publicKey)).length, before, 'nothing more on the ledger');
  });

  /** The native payments the funding account made into `account`: its reserve top-ups. */
  const topUps = async (account: string) =>
    (await paymentsInto(account)).filter((op) => op.asset_type === 'native' && op.from === funding);

  it('16 concurrent payments into a wallet without the trustline: the platform pays one reserve', async () => {
    const target = wallet.untrusting;
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => settledPay([leg(wallet.payer, target)])),
    );
    const outcomes = answers.map((asked) => asked.at(-1) as SubmissionOutcome);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      Array(16).fill('succeeded'),
    );
    assert.deepEqual(
      (await topUps(target.publicKey)).map((op) => op.amount),
      ['0.5000000'],
    );
    // Exactly the reserve of an account with one trustline: nothing to spend.
    assert.deepEqual(await holdings(target.publicKey), { USDC: stroops('16'), XLM: stroops('1.5') });
  });

  it('payments one after another while reads lag, into a wallet without the trustline: one reserve', async () => {
    ledger.faults.set({ accountsIngestDelayMs: LAG_MS });
    const target = wallet.lagging;
    for (let i = 0; i < 3; i++) {
      const asked = await settledPay([leg(wallet.payer, target)]);
      assert.equal(asked.at(-1)?.status, 'succeeded', JSON.stringify(asked.at(-1)));
    }
    assert.deepEqual(
      (await topUps(target.publicKey)).map((op) => op.amount),
      ['0.5000000'],
    );
    assert.deepEqual(await holdings(target.publicKey), { USDC: stroops('3'), XLM: stroops('1.5') });
  });

  it('a wallet opened a moment ago is waited for as destination and as source, never failed on a read', async () => {
    const custody = await import('../../lib/ledger/custody.ts');
    ledger.faults.set({ accountsIngestDelayMs: LAG_MS });
    const open = async () => {
      const fresh = await custody.newAccountKeys('sandbox');
      const opened = await operations.activateAccount({
        environment: 'sandbox',
        intentId: `test-activation:${randomUUID()}`,
        account: fresh,
        trustline: usdc,
        ...FAST,
      });
      assert.equal(opened.status, 'succeeded', JSON.stringify(opened));
      return fresh;
    };

    const into = await settledPay([leg(wallet.payer, await open(), '5')]);
    assert.equal(into[0]?.status, 'pending', 'the first read could not see the new wallet');
    assert.equal(into[0]?.errorCode, 'LEDGER_NOT_READY');
    assert.equal(into.at(-1)?.status, 'succeeded', JSON.stringify(into.at(-1)));

    // A new wallet holds no USDC: once the ledger sees it, the ledger itself refuses the payment.
    const from = await settledPay([leg(await open(), wallet.payee)]);
    assert.equal(from[0]?.status, 'pending', 'the first read could not see the new wallet');
    const decided = from.at(-1);
    assert.equal(decided?.status, 'failed', JSON.stringify(decided));
    assert.equal(decided?.errorCode, 'LEDGER_OP_UNDERFUNDED');
    assert.ok(decided?.hash, 'failed by a transaction in a closed ledger, not by a read');
  });
});
