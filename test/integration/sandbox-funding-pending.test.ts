// Sandbox funding on a slow ledger: the payment waits in the ledger's queue past the function's patience,
// so the answer is 202 pending; a retry with the same Idempotency-Key, once the ledger has closed,
// resumes the stored submission and answers 200 with the one payment. The sandbox function runs in this
// process against a ledger of this test's own (its genesis holds the stack's platform accounts and the
// wallet's account), whose ledgers close only when the test says so. A ledger that cannot be reached at
// all is a 503: nothing was sent, so nothing is pending. A 202 also hands the payment to the
// ledger-submissions queue (one of this test's own here, so the stack's worker, on the stack's ledger,
// never sees it): the ledger-submitter, run in this process on that message, settles it without a retry.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { resetConfig } from '../../lib/config.ts';
import type { LocalLedger } from '../../local/ledger/index.ts';
import { as, baseUrl, type Caller, newCaller } from '../support/api.ts';
import { channelGenesis } from '../support/channels.ts';
import { assertConforms } from '../support/contract.ts';

/** Below an envelope's 60 s validity (else the queue refuses it as too late), far above this test's length. */
const MANUAL_CLOSES_MS = 45_000;

describe('sandbox funding on a slow ledger', () => {
  let ledger: LocalLedger;
  let alice: Caller;
  let wallet: { id: string; publicKey: string };
  let usdcIssuer: string;
  let queue: Awaited<ReturnType<typeof ownQueue>>;

  beforeAll(async () => {
    alice = await newCaller();
    const created = await as(alice, '/wallets', {
      method: 'POST',
      body: { walletName: 'Slow', assetCode: 'USDC', ownAccount: true },
    });
    wallet = { id: created.body.id, publicKey: created.body.publicKey };
    const deadline = Date.now() + 30_000;
    while ((await as(alice, `/wallets/${wallet.id}`)).body.activationStatus !== 'active') {
      assert.ok(Date.now() < deadline, 'activation did not finish');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    usdcIssuer = (await as(alice, '/assets/USDC')).body.assetIssuer;

    const { platformAccount } = await import('../../lib/ledger/platform-accounts.ts');
    const { startLocalLedger } = await import('../../local/ledger/index.ts');
    const usdc = { code: 'USDC', issuer: usdcIssuer };
    ledger = await startLocalLedger({
      port: 0,
      networkPassphrase: `Slow sandbox ; ${randomUUID()}`,
      closeIntervalMs: MANUAL_CLOSES_MS,
      genesis: {
        accounts: [
          { publicKey: (await platformAccount('sandbox', 'funding')).publicKey, nativeBalance: '100000' },
          { publicKey: usdcIssuer, nativeBalance: '10000' },
          ...(await channelGenesis()),
          { publicKey: wallet.publicKey, nativeBalance: '1.5', trustlines: [{ asset: usdc, balance: '0' }] },
        ],
      },
    });
    // Before this process first talks to a ledger: the function reads these once.
    queue = await ownQueue();
    process.env.QUEUE_URL_LEDGER_SUBMISSIONS = queue.url;
    process.env.HORIZON_URL_SANDBOX = ledger.url;
    process.env.NETWORK_PASSPHRASE_SANDBOX = ledger.networkPassphrase;
    process.env.LEDGER_TIMEOUT_MS = '500';
    resetConfig();
  });

  afterAll(async () => {
    await ledger?.stop();
  });

  const paymentsToWallet = async () => {
    const response = await fetch(`${ledger.url}/accounts/${wallet.publicKey}/payments?limit=200`);
    const page = (await response.json()) as { _embedded: { records: { type: string; from: string }[] } };
    return page._embedded.records.filter((p) => p.type === 'payment' && p.from === usdcIssuer).length;
  };

  /** POST /v1/sandbox/wallets/{walletId}/fund, served by the sandbox function in this process. */
  const fund = async (key: string) => {
    const { toApiGatewayEvent, lambdaContext } = await import('../../local/lambda-event.ts');
    const { handler } = await import('../../functions/api/sandbox.ts');
    const url = `/v1/sandbox/wallets/${wallet.id}/fund`;
    const result = await handler(
      toApiGatewayEvent(
        {
          method: 'POST',
          url,
          headers: {
            'x-service-auth': alice.tenant.apiKey,
            authorization: `Bearer ${alice.token}`,
            'content-type': 'application/json',
            'idempotency-key': key,
          },
          body: Buffer.from(JSON.stringify({ assetCode: 'USDC', amount: 7 })),
        },
        'POST /v1/sandbox/wallets/{walletId}/fund',
        { walletId: wallet.id },
      ),
      lambdaContext('sandbox'),
    );
    const answer = {
      status: result.statusCode ?? 0,
      headers: new Headers(result.headers as Record<string, string>),
      body: JSON.parse(result.body ?? 'null'),
    };
    // Held to the OpenAPI document as every answer through the gateway is.
    await assertConforms('POST', `${baseUrl()}${url.replace(/^\/v1/, '')}`, baseUrl(), answer);
    return answer;
  };

  it('answers 202 pending while the ledger has not closed, then 200 with the one payment on a retry with the same key', async () => {
    const key = randomUUID();
    // A fresh cadence: the next close is MANUAL_CLOSES_MS away, long after the function gives up.
    await ledger.closeLedgerNow();
    const pending = await fund(key);
    assert.equal(pending.status, 202, JSON.stringify(pending.body));
    assert.deepEqual(pending.body, {
      walletId: wallet.id,
      assetCode: 'USDC',
      amount: 7,
      status: 'pending',
      stellarTxHash: null,
    });
    const status = (await (await fetch(`${ledger.url}/_admin/status`)).json()) as { pending: string[] };
    assert.equal(status.pending.length, 1, 'the payment waits in the ledger’s queue');
    assert.equal(await paymentsToWallet(), 0);

    await ledger.closeLedgerNow();
    const settled = await fund(key);
    assert.equal(settled.status, 200, JSON.stringify(settled.body));
    assert.deepEqual(settled.body, {
      walletId: wallet.id,
      assetCode: 'USDC',
      amount: 7,
      status: 'succeeded',
      stellarTxHash: status.pending[0],
    });
    assert.deepEqual((await fund(key)).body, settled.body);
    await ledger.closeLedgerNow();
    assert.equal(await paymentsToWallet(), 1);
  });

  it('settles a 202 through the queue: the ledger-submitter resumes the same intent, and a retry answers its outcome', async () => {
    const key = randomUUID();
    await ledger.closeLedgerNow();
    const before = await paymentsToWallet();
    const pending = await fund(key);
    assert.equal(pending.status, 202, JSON.stringify(pending.body));
    // Sent with a delay (about a ledger close); the first test's 202 queued its own message too.
    let message: SQSRecord | undefined;
    for (let round = 0; !message && round < 4; round++) {
      message = (await queue.receive()).find((m) => m.body.includes(key));
    }
    assert.ok(message, 'the pending payment was queued');
    const body = JSON.parse(message.body);
    assert.equal(body.kind, 'sandbox-funding');
    assert.equal(body.intentId, `sandbox-fund:sandbox:${alice.tenant.associationId}:${key}`);
    assert.deepEqual([body.walletId, body.assetCode, body.amount], [wallet.id, 'USDC', '7']);

    const { handler } = await import('../../functions/workers/ledger-submitter.ts');
    const { lambdaContext } = await import('../../local/lambda-event.ts');
    const record = message;
    const deliver = () => handler({ Records: [record] } as never, lambdaContext('ledger-submitter', 10_000));
    // Before the close the worker finds it still pending and fails the message: its only one, so the
    // batch fails whole (Powertools throws), and SQS delivers it again after the visibility timeout.
    await assert.rejects(deliver(), { name: 'FullBatchFailureError' });
    await ledger.closeLedgerNow();
    assert.deepEqual(await deliver(), { batchItemFailures: [] });
    assert.equal(await paymentsToWallet(), before + 1);

    const retried = await fund(key);
    assert.equal(retried.status, 200, JSON.stringify(retried.body));
    assert.equal(retried.body.status, 'succeeded');
    await ledger.closeLedgerNow();
    assert.equal(await paymentsToWallet(), before + 1, 'once, whoever resumed it');
  });

  it('answers 503, not 202, when the ledger cannot be reached and nothing was sent', async () => {
    ledger.faults.set({ unavailable: true });
    try {
      const refused = await fund(randomUUID());
      assert.equal(refused.status, 503, JSON.stringify(refused.body));
      assert.match(refused.body.detail, /nothing was sent/);
    } finally {
      ledger.faults.clear();
    }
    const status = (await (await fetch(`${ledger.url}/_admin/status`)).json()) as { pending: string[] };
    assert.deepEqual(status.pending, []);
  });
});

/** A queue of this test's own in the stack's fauxqs, read as the Lambda event source would. */
async function ownQueue() {
  const { SQSClient, CreateQueueCommand, ReceiveMessageCommand } = await import('@aws-sdk/client-sqs');
  const { toRecord } = await import('../../local/sqs-poller.ts');
  const sqs = new SQSClient({ useQueueUrlAsEndpoint: false });
  const { QueueUrl } = await sqs.send(
    new CreateQueueCommand({ QueueName: `test-ledger-submissions-${randomUUID()}` }),
  );
  if (!QueueUrl) throw new Error('CreateQueue returned no QueueUrl');
  return {
    url: QueueUrl,
    /** The messages waiting (up to 10), as SQS records of a Lambda event. */
    receive: async (): Promise<SQSRecord[]> => {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 10 }),
      );
      return Messages.map((message) => toRecord(message, 'arn:aws:sqs:us-east-1:000000000000:test'));
    },
  };
}
