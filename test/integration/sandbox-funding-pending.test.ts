// Sandbox funding on a slow ledger: the payment waits in the ledger's queue past the function's patience,
// so the answer is 202 pending; a retry with the same Idempotency-Key, once the ledger has closed,
// resumes the stored submission and answers 200 with the one payment. The sandbox function runs in this
// process against a ledger of this test's own (its genesis holds the stack's platform accounts and the
// wallet's account), whose ledgers close only when the test says so. A ledger that cannot be reached at
// all is a 503: nothing was sent, so nothing is pending.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { resetConfig } from '../../lib/config.ts';
import type { LocalLedger } from '../../lib/local/ledger/index.ts';
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
    const { startLocalLedger } = await import('../../lib/local/ledger/index.ts');
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
    const { toApiGatewayEvent, lambdaContext } = await import('../../lib/local/lambda-event.ts');
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
