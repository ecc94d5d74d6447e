// Payments under faults (issue #10 §5), with the real components: the acceptance service writes each
// record, the outbox (the table's stream, read by the local stream poller, and the router) puts its
// message on the ledger-submissions queue, and the ledger-submitter runs in this process on the SQS
// record it receives. Each case breaks one step (a worker that dies after the ledger applied the payment,
// the same message twice or at once, a ledger that is down, an answer that is lost, a worker that died
// with its envelope persisted but not sent) and counts what reached the ledger: one transaction, the
// balances moved once, and the record completed once with that transaction's hash.
//
// Isolated from the stack's own worker: the records live in a table of this file's own (useOwnTable),
// whose stream only this file's poller reads, routing into a queue of this file's own; the ledger is this
// file's own too, its genesis holding that table's platform funding account, channel accounts, the USDC
// issuer and the wallets with their trustlines and balances.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, DeleteQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { Asset, Operation } from '@stellar/stellar-sdk';
import type { DynamoDBRecord, DynamoDBStreamEvent, SQSRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, it } from 'vitest';
import { resetConfig } from '../../lib/config.ts';
import type { TransactionRecord } from '../../lib/payments/repo.ts';
import type { Tenant } from '../../lib/tenant.ts';
import type { WalletRecord } from '../../lib/wallets/repo.ts';
import type { LocalLedger } from '../../local/ledger/index.ts';
import { useOwnTable } from '../../local/stack.ts';
import { newTenant } from '../support/api.ts';
import { channelGenesis } from '../support/channels.ts';
import { type CapturedLogs, captureLogs } from '../support/logs.ts';
import { type OwnOutbox, receiveRecords, startOwnOutbox } from '../support/own-outbox.ts';
import { recordWallet } from '../support/wallet-records.ts';

type Payments = typeof import('../../lib/ledger/payments.ts');
type Submit = typeof import('../../lib/ledger/submit.ts');
type Envelopes = typeof import('../../lib/ledger/envelopes.ts');
type Repo = typeof import('../../lib/payments/repo.ts');
type Service = typeof import('../../lib/payments/transfers.ts');
type Schema = typeof import('../../lib/payments/schema.ts');
type PlatformAccount = Awaited<
  ReturnType<typeof import('../../lib/ledger/platform-accounts.ts').platformAccount>
>;
// biome-ignore lint/suspicious/noExplicitAny: Horizon resources are asserted on field by field.
type Json = any;

/** Each case pays between wallets of its own, so what it counts on the ledger is its payment alone. */
const CASES = [
  'crash',
  'twice',
  'down',
  'lost',
  'lostLagging',
  'persisted',
  'expired',
  'lostInsert',
  'inFlight',
] as const;
type Case = (typeof CASES)[number];
const START_USDC = '1000';

interface Pair {
  from: WalletRecord;
  to: WalletRecord;
}

describe('payment execution under faults', () => {
  let ledger: LocalLedger;
  let tenant: Tenant;
  let usdc: { code: string; issuer: string };
  let funding: PlatformAccount;
  let pairs: Record<Case, Pair>;
  let payments: Payments;
  let submit: Submit;
  let envelopes: Envelopes;
  let repo: Repo;
  let service: Service;
  let schema: Schema;
  let handler: (event: { Records: SQSRecord[] }) => Promise<unknown>;
  let sqs: SQSClient;
  let queueUrl: string;
  let outbox: OwnOutbox;
  let logs: CapturedLogs;
  /** Messages received from the queue and not yet asked for. */
  const received: SQSRecord[] = [];
  /** What the table's stream carried: each transaction record's moves (status changes), and the wallets written. */
  const moves = new Map<string, { from: string | undefined; to: string | undefined }[]>();
  const walletsSeen = new Set<string>();
  const eventsSeen = new Set<string>();
  /** Wallets whose payments' inserts the stream loses (the reconciler's cases). */
  const losesInsertsOf = new Set<string>();
  let eventsQueueUrl: string;

  beforeAll(async () => {
    // Before this process first reads its table or a ledger: the modules read both once.
    const tableName = await useOwnTable('test-payment-faults');
    process.env.LEDGER_TIMEOUT_MS = '1000';
    resetConfig();
    const platform = await import('../../lib/ledger/platform-accounts.ts');
    const { seedRegistries } = await import('../../lib/assets/registry-seed.ts');
    const { putAsset } = await import('../../lib/assets/repo.ts');

    const admin = await newTenant();
    tenant = { environment: 'sandbox', associationId: admin.associationId };
    funding = await platform.ensurePlatformAccount('sandbox', 'funding');
    const issuer = await platform.ensurePlatformAccount('sandbox', 'issuer:USDC');
    const registered = seedRegistries.sandbox.find((asset) => asset.assetCode === 'USDC');
    assert.ok(registered);
    await putAsset('sandbox', { ...registered, assetIssuer: issuer.publicKey });
    usdc = { code: 'USDC', issuer: issuer.publicKey };
    // Inserted active: a pending wallet's insert would ask the outbox for its activation.
    const wallet = (name: string) =>
      recordWallet(tenant, {
        walletName: name,
        assetCode: 'USDC',
        assetIssuer: issuer.publicKey,
        activationStatus: 'active',
      });
    pairs = Object.fromEntries(
      await Promise.all(
        CASES.map(async (name) => [
          name,
          { from: await wallet(`${name} from`), to: await wallet(`${name} to`) },
        ]),
      ),
    ) as Record<Case, Pair>;

    const { startLocalLedger } = await import('../../local/ledger/index.ts');
    const trustline = (balance: string) => [{ asset: usdc, balance }];
    ledger = await startLocalLedger({
      port: 0,
      networkPassphrase: `Payment faults ; ${randomUUID()}`,
      // Every accepted transaction closes a ledger at once: the faults are the ledger's answers.
      closeIntervalMs: 0,
      genesis: {
        accounts: [
          { publicKey: funding.publicKey, nativeBalance: '100000' },
          { publicKey: issuer.publicKey, nativeBalance: '10000' },
          ...(await channelGenesis()),
          ...Object.values(pairs).flatMap(({ from, to }) => [
            { publicKey: from.publicKey, nativeBalance: '10', trustlines: trustline(START_USDC) },
            { publicKey: to.publicKey, nativeBalance: '10', trustlines: trustline('0') },
          ]),
        ],
      },
    });
    process.env.HORIZON_URL_SANDBOX = ledger.url;
    process.env.NETWORK_PASSPHRASE_SANDBOX = ledger.networkPassphrase;

    sqs = new SQSClient({ useQueueUrlAsEndpoint: false });
    const created = await sqs.send(
      new CreateQueueCommand({ QueueName: `test-payment-faults-${randomUUID()}` }),
    );
    assert.ok(created.QueueUrl);
    queueUrl = created.QueueUrl;
    process.env.QUEUE_URL_LEDGER_SUBMISSIONS = queueUrl;
    // Webhook events of this file's records, counted by the reconciler's cases.
    const events = await sqs.send(
      new CreateQueueCommand({ QueueName: `test-payment-faults-events-${randomUUID()}` }),
    );
    assert.ok(events.QueueUrl);
    eventsQueueUrl = events.QueueUrl;
    process.env.QUEUE_URL_WEBHOOK_EVENTS = eventsQueueUrl;
    resetConfig();

    payments = await import('../../lib/ledger/payments.ts');
    submit = await import('../../lib/ledger/submit.ts');
    envelopes = await import('../../lib/ledger/envelopes.ts');
    repo = await import('../../lib/payments/repo.ts');
    service = await import('../../lib/payments/transfers.ts');
    schema = await import('../../lib/payments/schema.ts');
    const { lambdaContext } = await import('../../local/lambda-event.ts');
    const submitter = await import('../../functions/workers/ledger-submitter.ts');
    handler = (event) => submitter.handler(event as never, lambdaContext('ledger-submitter', 30_000));

    // The outbox of this file's table, as the stack wires its own (local/stack.ts).
    // What the stream carries, watched: every move of a record is a MODIFY in its stream.
    const watch = (event: DynamoDBStreamEvent) => {
      for (const { eventID, eventName, dynamodb } of event.Records) {
        if (!eventID || eventsSeen.has(eventID)) continue;
        eventsSeen.add(eventID);
        const item = dynamodb?.NewImage;
        if (item?.type?.S === 'wallet' && item.walletId?.S) walletsSeen.add(item.walletId.S);
        if (eventName !== 'MODIFY' || item?.type?.S !== 'transaction' || !item.transactionRecordId?.S)
          continue;
        // A move changes the status (the reconciler's re-drive moves only the record's place on its index).
        if (dynamodb?.OldImage?.status?.S === item.status?.S) continue;
        const id = item.transactionRecordId.S;
        moves.set(id, [
          ...(moves.get(id) ?? []),
          { from: dynamodb?.OldImage?.status?.S, to: item.status?.S },
        ]);
      }
    };
    // The stream loses the inserts of payments from the wallets the reconciler's cases name.
    const lost = (record: DynamoDBRecord) =>
      record.eventName === 'INSERT' &&
      record.dynamodb?.NewImage?.type?.S === 'transaction' &&
      losesInsertsOf.has(record.dynamodb.NewImage.walletId?.S ?? '');
    outbox = await startOwnOutbox(tableName, 'test-payment-faults-outbox', watch, lost);
  });

  afterEach(() => {
    logs?.restore();
    ledger?.faults.clear();
  });

  afterAll(async () => {
    await outbox?.stop();
    if (queueUrl) await sqs.send(new DeleteQueueCommand({ QueueUrl: queueUrl }));
    if (eventsQueueUrl) await sqs.send(new DeleteQueueCommand({ QueueUrl: eventsQueueUrl }));
    sqs?.destroy();
    await ledger?.stop();
  });

  // ── the ledger, read directly ──────────────────────────────────────────────────────────────────

  const horizon = async (path: string): Promise<{ status: number; body: Json }> => {
    const response = await fetch(`${ledger.url}${path}`);
    return { status: response.status, body: await response.json() };
  };
  /** Every transaction the paying wallet takes part in, failed ones included. */
  const transactionsOf = async (pair: Pair): Promise<Json[]> =>
    (await horizon(`/accounts/${pair.from.publicKey}/transactions?limit=200&include_failed=true`)).body
      ._embedded.records;
  const paymentsOf = async (pair: Pair): Promise<Json[]> =>
    (await horizon(`/accounts/${pair.from.publicKey}/payments?limit=200`)).body._embedded.records.filter(
      (p: Json) => p.type === 'payment' && p.from === pair.from.publicKey,
    );
  const usdcOf = async (publicKey: string): Promise<string> =>
    (await horizon(`/accounts/${publicKey}`)).body.balances.find((b: Json) => b.asset_code === 'USDC')
      ?.balance;
  /** What reached the ledger for the pair's payment: exactly one transaction, and the balances moved once. */
  const assertLandedOnce = async (pair: Pair, record: TransactionRecord) => {
    const landed = await transactionsOf(pair);
    assert.equal(landed.length, 1, `one transaction: ${JSON.stringify(landed.map((t: Json) => t.hash))}`);
    assert.equal(landed[0].hash, record.stellarTxHash);
    assert.equal(landed[0].successful, true);
    const paid = await paymentsOf(pair);
    assert.deepEqual(
      paid.map((p: Json) => [p.amount, p.to, p.transaction_hash]),
      [[Number(record.sendAmount).toFixed(7), pair.to.publicKey, record.stellarTxHash]],
    );
    assert.equal(
      await usdcOf(pair.from.publicKey),
      (Number(START_USDC) - Number(record.sendAmount)).toFixed(7),
    );
    assert.equal(await usdcOf(pair.to.publicKey), Number(record.sendAmount).toFixed(7));
  };

  // ── acceptance, the queue and the worker ───────────────────────────────────────────────────────

  /** A P2P between the pair's wallets through the real acceptance service: its record, `initiated`. */
  const accept = async (pair: Pair, amount: number): Promise<TransactionRecord> => {
    const body = schema.p2pOwnBody.parse({
      transactionId: randomUUID(),
      walletId: pair.from.walletId,
      destinationWalletId: pair.to.walletId,
      sendingAssetCode: 'USDC',
      amount,
    });
    const acceptance = await service.payP2pOwn(tenant, body, new Date());
    assert.equal(acceptance.isIdempotent, false);
    return recordOf(acceptance.transactionRecordId);
  };

  const submissionOf = async (record: TransactionRecord) => {
    const { findSubmission } = await import('../../lib/ledger/submissions.ts');
    return findSubmission('sandbox', record.intentId);
  };

  const recordOf = async (transactionRecordId: string): Promise<TransactionRecord> => {
    const record = await repo.findTransaction(tenant, transactionRecordId, { consistent: true });
    assert.ok(record, `record ${transactionRecordId}`);
    return record;
  };

  /** Reads the queue once (waiting up to `waitSeconds` for a message), keeping what it got. */
  const readQueue = async (waitSeconds: number) => {
    received.push(...(await receiveRecords(sqs, queueUrl, waitSeconds)));
  };

  const take = (transactionRecordId: string, attempt: number): SQSRecord | undefined => {
    const index = received.findIndex((m) => {
      const body = JSON.parse(m.body);
      return body.transactionRecordId === transactionRecordId && (body.attempt ?? 1) === attempt;
    });
    return index < 0 ? undefined : received.splice(index, 1)[0];
  };

  /** The message the queue holds for the record (its insert's through the outbox, or a re-queue's). */
  const messageFor = async (
    transactionRecordId: string,
    attempt = 1,
    timeoutMs = 15_000,
  ): Promise<SQSRecord> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = take(transactionRecordId, attempt);
      if (found) return found;
      assert.ok(Date.now() < deadline, `no message (attempt ${attempt}) for ${transactionRecordId}`);
      await readQueue(1);
    }
  };

  /** The ledger-submitter, in this process, on one SQS record: a batch of one, as lib/queues.ts sets it. */
  const deliver = async (message: SQSRecord) => {
    assert.deepEqual(await handler({ Records: [message] }), { batchItemFailures: [] });
  };

  /** The stream read up to a wallet written now (one shard, in order): every write made before is read. */
  const streamCaughtUp = async () => {
    const barrier = await recordWallet(tenant, { walletName: 'Barrier', activationStatus: 'active' });
    const deadline = Date.now() + 10_000;
    while (!walletsSeen.has(barrier.walletId)) {
      assert.ok(Date.now() < deadline, 'the stream did not catch up');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  /**
   * The record moved once, initiated → completed, by the table's stream: read up to a wallet written
   * now (one shard, in order), so every write the workers made before is in what was read.
   */
  const assertMovedOnce = async (transactionRecordId: string) => {
    await streamCaughtUp();
    assert.deepEqual(moves.get(transactionRecordId), [{ from: 'initiated', to: 'completed' }]);
  };

  /**
   * Nothing this file provokes is an error: the faults are what the worker is built for. (The cases
   * assert on state, not on the workers' info lines: each invocation's injectLambdaContext resets the
   * logger to its initial level, so captureLogs sees WARN and above after the first one.)
   */
  const assertNoErrors = () =>
    assert.deepEqual(
      logs.lines.filter((line) => line.level === 'ERROR' || line.level === 'CRITICAL'),
      [],
    );

  /** The legs executePayment is given for the record (lib/payments/execution.ts legsOf, for a P2P). */
  const legsOf = (pair: Pair, record: TransactionRecord) => [
    {
      from: { publicKey: pair.from.publicKey, sealedSecret: pair.from.sealedSecret },
      to: pair.to.publicKey,
      custodialDestination: { publicKey: pair.to.publicKey, sealedSecret: pair.to.sealedSecret },
      sendAsset: usdc,
      amount: record.sendAmount,
    },
  ];

  /** The payment as executePayment builds it: on the leased channel, fee-bumped by funding. */
  const paymentBuild =
    (pair: Pair, record: TransactionRecord) => async (ctx: Parameters<typeof envelopes.onChannel>[0]) => {
      const builder = envelopes.onChannel(ctx).addOperation(
        Operation.payment({
          source: pair.from.publicKey,
          destination: pair.to.publicKey,
          asset: new Asset(usdc.code, usdc.issuer),
          amount: record.sendAmount,
        }),
      );
      const signers = [{ publicKey: pair.from.publicKey, sealedSecret: pair.from.sealedSecret }];
      return envelopes.fundedEnvelope(builder, ctx, signers, funding);
    };

  /** A dead worker's first half (submit.ts prepareSubmission): the envelope persisted, never sent. */
  const persistEnvelope = async (pair: Pair, record: TransactionRecord, now?: () => Date) => {
    const prepared = await submit.prepareSubmission({
      environment: 'sandbox',
      intentId: record.intentId,
      purpose: record.requestFingerprint,
      channel: true,
      build: paymentBuild(pair, record),
      ...(now ? { now } : {}),
    });
    assert.ok('envelopes' in prepared && prepared.status === 'submitting', JSON.stringify(prepared));
    return prepared;
  };

  /** A case's payment: accepted, its message received from the queue; the case's logs captured. */
  const paymentOf = async (pair: Pair, amount: number) => {
    logs = captureLogs();
    const record = await accept(pair, amount);
    return { record, message: await messageFor(record.transactionRecordId) };
  };

  /** A worker's ledger part of the record, as executeTransaction runs it, and nothing after it. */
  const ledgerPartOf = async (pair: Pair, record: TransactionRecord) => {
    const outcome = await payments.executePayment({
      environment: 'sandbox',
      intentId: record.intentId,
      purpose: record.requestFingerprint,
      legs: legsOf(pair, record),
      slippage: '0',
      budgetMs: 6_000,
    });
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
    return outcome;
  };

  /** The record completed, once, with the one transaction that reached the ledger. */
  const assertCompletedOnce = async (pair: Pair, record: TransactionRecord): Promise<TransactionRecord> => {
    const completed = await recordOf(record.transactionRecordId);
    assert.equal(completed.status, 'completed', JSON.stringify(completed));
    assert.equal(completed.updatedAt, completed.completedAt);
    await assertLandedOnce(pair, completed);
    await assertMovedOnce(record.transactionRecordId);
    assertNoErrors();
    return completed;
  };

  // ── the cases ──────────────────────────────────────────────────────────────────────────────────

  it('a worker that died after the ledger applied the payment: the next delivery completes it from the stored hash', async () => {
    const pair = pairs.crash;
    const { record, message } = await paymentOf(pair, 12.5);
    // The dead worker's ledger part: the record's intent, purpose and legs, as executeTransaction runs it;
    // then the crash, before the record moved.
    const outcome = await ledgerPartOf(pair, record);
    assert.ok(outcome.hash);
    assert.equal((await submissionOf(record))?.status, 'succeeded');
    assert.equal((await recordOf(record.transactionRecordId)).status, 'initiated');
    assert.equal((await transactionsOf(pair)).length, 1);

    await deliver(message);
    const completed = await assertCompletedOnce(pair, record);
    assert.equal(completed.stellarTxHash, outcome.hash);
    assert.equal(completed.receiveAmount, '12.5');
  });

  it('the same message twice at once, then again after completion: one transaction, the record moved once', async () => {
    const pair = pairs.twice;
    const { record, message } = await paymentOf(pair, 3);
    await Promise.all([deliver(message), deliver(message)]);
    const completed = await assertCompletedOnce(pair, record);
    assert.equal((await submissionOf(record))?.envelopes.length, 1, 'one envelope between them');

    // A redelivery after completion (SQS, or the stream sending the insert again): left as it is.
    await deliver(message);
    assert.deepEqual(await recordOf(record.transactionRecordId), completed);
    await assertCompletedOnce(pair, record);
  });

  it('a ledger that is down: the record stays initiated and the message comes back later; then it completes once', async () => {
    const pair = pairs.down;
    const { record, message } = await paymentOf(pair, 7);
    ledger.faults.set({ unavailable: true });
    await deliver(message);
    const requeuedBy = Date.now();
    assert.equal((await recordOf(record.transactionRecordId)).status, 'initiated');
    // Put back with its delay (2 s for a first attempt): not on the queue at once.
    await readQueue(0);
    assert.equal(take(record.transactionRecordId, 2), undefined, 'delayed, not visible at once');

    ledger.faults.clear();
    assert.equal((await transactionsOf(pair)).length, 0, 'nothing landed while the ledger was down');
    assert.equal((await recordOf(record.transactionRecordId)).status, 'initiated');
    const again = await messageFor(record.transactionRecordId, 2);
    assert.ok(Date.now() - requeuedBy >= 1_500, 'visible only after its delay');
    assert.deepEqual(JSON.parse(again.body), { ...JSON.parse(message.body), attempt: 2 });
    await deliver(again);
    await assertCompletedOnce(pair, record);
  });

  it('a lost answer: the ledger applied the submission, the worker completes the record from the hash lookup', async () => {
    const pair = pairs.lost;
    const { record, message } = await paymentOf(pair, 4.25);
    ledger.faults.set({ submissionAnswer: { mode: 'drop', count: 1 } });
    await deliver(message);
    assert.deepEqual(ledger.faults.current(), {}, 'the one submission’s answer was dropped');
    const submission = await submissionOf(record);
    assert.equal(submission?.envelopes.length, 1, 'nothing rebuilt');
    const completed = await assertCompletedOnce(pair, record);
    assert.equal(completed.stellarTxHash, submission?.hash);
  });

  it('lost answers while the ledger’s history lags: nothing new is built, and the re-queued message completes it', async () => {
    const pair = pairs.lostLagging;
    const { record, message } = await paymentOf(pair, 9);
    // Every answer to a submission is lost, and the transactions (by hash, and in the channel's history)
    // stay out of sight for the whole call: only proof may let the worker build again, and there is none.
    // Accounts stay current, so a new envelope would take the next sequence number and land a second time.
    ledger.faults.set({
      submissionAnswer: { mode: 'drop', count: 100 },
      ingestDelayMs: 600_000,
      accountsIngestDelayMs: 0,
    });
    await deliver(message);
    assert.equal((await recordOf(record.transactionRecordId)).status, 'initiated');
    const inFlight = await submissionOf(record);
    assert.equal(inFlight?.status, 'submitting');
    assert.equal(inFlight?.envelopes.length, 1, 'one envelope, sent again as it was');
    assert.ok(
      (ledger.faults.current().submissionAnswer?.count ?? 100) < 99,
      'submitted again, its answers lost',
    );

    ledger.faults.clear();
    assert.deepEqual(
      (await transactionsOf(pair)).map((t: Json) => t.hash),
      [inFlight?.hash],
      'the first submission was applied, the others were the same envelope',
    );
    await deliver(await messageFor(record.transactionRecordId, 2));
    const completed = await assertCompletedOnce(pair, record);
    assert.equal(completed.stellarTxHash, inFlight?.hash);
  });

  it('a worker that died with its envelope persisted but not sent: the next delivery sends that envelope', async () => {
    const pair = pairs.persisted;
    const { record, message } = await paymentOf(pair, 2);
    const prepared = await persistEnvelope(pair, record);
    assert.equal((await horizon(`/transactions/${prepared.hash}`)).status, 404);

    await deliver(message);
    const completed = await assertCompletedOnce(pair, record);
    assert.equal(completed.stellarTxHash, prepared.hash, 'the persisted envelope, not a new one');
    assert.equal((await submissionOf(record))?.envelopes.length, 1);
  });

  it('a worker that died with its envelope persisted, which then expired: a proven replacement lands, once', async () => {
    const pair = pairs.expired;
    const { record, message } = await paymentOf(pair, 5);
    // Built by a worker 90 s ago: its maxTime (+60 s) has passed.
    const prepared = await persistEnvelope(pair, record, () => new Date(Date.now() - 90_000));
    // A ledger closed after its maxTime: the proof that it can never land.
    await ledger.closeLedgerNow();

    await deliver(message);
    const completed = await assertCompletedOnce(pair, record);
    const submission = await submissionOf(record);
    assert.deepEqual(
      [submission?.envelopes.length, submission?.provenDead, submission?.envelopes[0]?.hash],
      [2, 1, prepared.hash],
      'the expired envelope proven dead, then replaced',
    );
    assert.equal(completed.stellarTxHash, submission?.hash);
    assert.equal((await horizon(`/transactions/${prepared.hash}`)).status, 404);
  });

  // ── the outbox reconciler (lib/outbox-reconciler.ts) ──────────────────────────────────────────

  /** A reconciler run as its schedule would make it `minutes` from now (its bound: 15 minutes). */
  const reconcileIn = async (minutes: number) => {
    const { reconcile } = await import('../../lib/outbox-reconciler.ts');
    return reconcile(new Date(Date.now() + minutes * 60_000));
  };

  /** The webhook events the outbox sent for the record so far, by type (each event message once). */
  const eventTypesOf = async (transactionRecordId: string): Promise<string[]> => {
    const types: string[] = [];
    for (;;) {
      const batch = await receiveRecords(sqs, eventsQueueUrl, 0);
      if (batch.length === 0) return types.sort();
      for (const message of batch) {
        const event = JSON.parse(message.body);
        if (event.item?.transactionRecordId === transactionRecordId) types.push(event.type);
      }
    }
  };

  it('a payment whose insert the stream lost: the reconciler re-drives it past the bound, and it completes once', async () => {
    const pair = pairs.lostInsert;
    losesInsertsOf.add(pair.from.walletId);
    logs = captureLogs();
    const record = await accept(pair, 6);
    // The stream has read past the insert and sent nothing for it.
    await streamCaughtUp();
    await readQueue(1);
    assert.equal(take(record.transactionRecordId, 1), undefined, 'the insert asked for nothing');
    assert.equal((await recordOf(record.transactionRecordId)).status, 'initiated');

    // Within the bound it is left to its message; past it, re-driven with the message its insert asks for.
    await reconcileIn(1);
    await readQueue(1);
    assert.equal(take(record.transactionRecordId, 1), undefined, 'not re-driven within the bound');
    await reconcileIn(16);
    const message = await messageFor(record.transactionRecordId);
    assert.deepEqual(JSON.parse(message.body), {
      kind: 'payment',
      environment: 'sandbox',
      associationId: tenant.associationId,
      transactionRecordId: record.transactionRecordId,
      requestedAt: record.createdAt,
    });
    await deliver(message);
    await assertCompletedOnce(pair, record);
    // Settled, it left the pending index: a later run re-drives nothing for it.
    await reconcileIn(60);
    await readQueue(1);
    assert.equal(take(record.transactionRecordId, 1), undefined, 'not re-driven once completed');
    // One event per state: the initiated one the lost insert owed (re-sent), and the completion.
    assert.deepEqual(await eventTypesOf(record.transactionRecordId), [
      'payment.completed',
      'payment.initiated',
    ]);
    assert.ok(
      logs.lines.some(
        (line) =>
          line.message === 'Outbox reconciler: re-drove a stuck record' &&
          line.id === record.transactionRecordId,
      ),
      'one line per re-driven record',
    );
  });

  it('a pending record whose state asks for nothing is moved back, not reported as re-driven (no false page)', async () => {
    const { db, tableName } = await import('../../lib/db/client.ts');
    const { PutCommand, GetCommand } = await import('@aws-sdk/lib-dynamodb');
    const { walletKeys, pendingKeys } = await import('../../lib/db/keys.ts');
    const walletId = randomUUID();
    const key = walletKeys.wallet(tenant, walletId);
    const since = new Date(Date.now() - 60_000).toISOString();
    // Left on the pending index in a state the outbox routes nowhere: opened, its status not yet decided.
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...key,
          type: 'wallet',
          environment: tenant.environment,
          associationId: tenant.associationId,
          walletId,
          status: 'Pending',
          activationStatus: 'active',
          ...pendingKeys.of(tenant.environment, 'wallet', since),
        },
      }),
    );
    logs = captureLogs();
    await reconcileIn(16);
    const lines = logs.lines.filter((line) => line.id === walletId);
    assert.deepEqual(
      lines.map((line) => line.message),
      ['Outbox reconciler: a pending record asks for nothing in its state; nothing sent'],
    );
    const { Item } = await db.send(
      new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }),
    );
    assert.ok(Item?.pendingSk > since, 'its place on the index moved to the run');
  });

  it('a payment in flight (submitted, the record not moved) re-driven past the bound: settled from its submission, paid once', async () => {
    const pair = pairs.inFlight;
    const { record, message } = await paymentOf(pair, 8);
    // The worker's ledger part ran (the payment landed, its submission record holds the hash); the
    // record is still initiated, as while a worker is re-queueing it.
    const outcome = await ledgerPartOf(pair, record);
    assert.equal((await recordOf(record.transactionRecordId)).status, 'initiated');

    await reconcileIn(16);
    const redriven = await messageFor(record.transactionRecordId);
    await deliver(redriven);
    const completed = await assertCompletedOnce(pair, record);
    assert.equal(completed.stellarTxHash, outcome.hash);
    assert.equal((await submissionOf(record))?.envelopes.length, 1, 'nothing built again');
    // The outbox's own message, delivered after: left alone.
    await deliver(message);
    await assertCompletedOnce(pair, record);
  });
});
