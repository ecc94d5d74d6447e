// The ledger admin function (functions/admin/ledger-accounts.ts) bootstrapping a new stage's sandbox
// ledger accounts, as the README's deploy walkthrough runs it: its funding account made but not yet on
// the ledger, refused; funded (friendbot), its channel accounts and the sandbox assets' issuers opened;
// too poor for more, refused with what to send. A table of this file's own stands for the new stage; the ledger is the stack's sandbox
// ledger (the test network's stand-in, with its friendbot).
import assert from 'node:assert/strict';
import { Asset, Horizon, Keypair, Networks, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import BigNumber from 'bignumber.js';
import { beforeAll, describe, it } from 'vitest';
import { lambdaContext } from '../../local/lambda-event.ts';
import { useOwnTable } from '../../local/stack.ts';

type Handler = (
  event: unknown,
  context: ReturnType<typeof lambdaContext>,
) => Promise<Record<string, unknown>>;
// biome-ignore lint/suspicious/noExplicitAny: reports are asserted on field by field.
type Report = any;

describe('ledger admin function on a new stage', () => {
  let handler: Handler;
  const horizonUrl = String(process.env.TEST_HORIZON_URL);
  const server = new Horizon.Server(horizonUrl, { allowHttp: true });
  const invoke = (event: unknown) => handler(event, lambdaContext('ledger-admin', 60_000));
  const status = async (): Promise<Report> => {
    const answer = await invoke({ action: 'status', environment: 'sandbox' });
    assert.equal(answer.ok, true);
    return answer.report;
  };

  beforeAll(async () => {
    await useOwnTable('test-ledger-admin');
    ({ handler } = (await import('../../functions/admin/ledger-accounts.ts')) as unknown as {
      handler: Handler;
    });
  });

  it('makes the funding keys, refuses to open channels from an account not on the ledger, then opens them once funded', async () => {
    const before = await status();
    assert.deepEqual(before.funding, { publicKey: before.funding.publicKey, open: false, xlm: null });
    assert.deepEqual(before.channels, []);
    // The same keys on every call: the account to fund does not move.
    assert.equal((await status()).funding.publicKey, before.funding.publicKey);

    const refused = await invoke({ action: 'open-channels', environment: 'sandbox', count: 2 });
    assert.equal(refused.ok, false);
    assert.match(
      String(refused.error),
      new RegExp(`funding account ${before.funding.publicKey} is not open`),
    );

    await server.friendbot(before.funding.publicKey).call();
    const opened = await invoke({ action: 'open-channels', environment: 'sandbox', count: 2 });
    assert.equal(opened.ok, true, String(opened.error));
    const after = await status();
    assert.equal(after.funding.open, true);
    assert.equal(after.channels.length, 2);
    for (const channel of after.channels) {
      assert.equal(channel.open, true);
      assert.equal((await server.loadAccount(channel.publicKey)).accountId(), channel.publicKey);
    }
  });

  it('opens the sandbox issuers and registers the sandbox assets with them, once', async () => {
    const answer = await invoke({ action: 'open-sandbox-assets' });
    assert.equal(answer.ok, true, String(answer.error));
    const report = answer.report as Report;
    const { findPlatformAccount } = await import('../../lib/ledger/platform-accounts.ts');
    const { findAsset } = await import('../../lib/assets/repo.ts');
    assert.deepEqual(report.assets.map((a: Report) => a.assetCode).sort(), ['EURC', 'USDC', 'XLM']);
    for (const asset of report.assets) {
      const registered = await findAsset('sandbox', asset.assetCode);
      assert.equal(registered?.assetIssuer, asset.assetIssuer, asset.assetCode);
      if (asset.assetIssuer === null) continue;
      // Our own issuer, on the ledger: not the stablecoin's public test-network issuer.
      assert.equal(
        (await findPlatformAccount('sandbox', `issuer:${asset.assetCode}`))?.publicKey,
        asset.assetIssuer,
      );
      assert.equal((await server.loadAccount(asset.assetIssuer)).accountId(), asset.assetIssuer);
    }
    assert.ok(report.openedBy);
    // The same request again is the same intent: its recorded outcome, nothing submitted.
    const { funding } = await status();
    const sequence = (await server.loadAccount(funding.publicKey)).sequenceNumber();
    const again = await invoke({ action: 'open-sandbox-assets' });
    assert.equal((again.report as Report).openedBy, report.openedBy);
    assert.deepEqual((again.report as Report).assets, report.assets);
    assert.equal((await server.loadAccount(funding.publicKey)).sequenceNumber(), sequence);
  });

  it('refuses to open more than the funding account can pay for, saying how much it needs', async () => {
    const { funding } = await status();
    // Drain the funding account to 3 XLM (its keys are the stage's: opened here with the same KEK).
    const { findPlatformAccount } = await import('../../lib/ledger/platform-accounts.ts');
    const { openSecret } = await import('../../lib/ledger/custody.ts');
    const account = await findPlatformAccount('sandbox', 'funding');
    assert.ok(account);
    const keys: Keypair = await openSecret('sandbox', account.publicKey, account.sealedSecret);
    const sink = Keypair.random().publicKey();
    await server.friendbot(sink).call();
    const drained = new BigNumber(funding.xlm).minus(3).minus('0.0001').toFixed(7);
    const tx = new TransactionBuilder(await server.loadAccount(funding.publicKey), {
      fee: '100',
      networkPassphrase: Networks.TESTNET,
    })
      .addOperation(Operation.payment({ destination: sink, asset: Asset.native(), amount: drained }))
      .setTimeout(30)
      .build();
    tx.sign(keys);
    await server.submitTransaction(tx);

    const held = (await status()).funding.xlm;
    const refused = await invoke({ action: 'open-channels', environment: 'sandbox', count: 3 });
    assert.equal(refused.ok, false);
    assert.equal(
      refused.error,
      `The sandbox funding account ${funding.publicKey} holds ${held} XLM; opening 1 channel account(s) ` +
        'needs at least 7 XLM: send it more first.',
    );
    // Nothing was made on the ledger: still the two channels.
    assert.equal((await status()).channels.filter((c: Report) => c.open).length, 2);
  });

  it('answers an unreachable ledger with the reason, not a function error', async () => {
    // This file reads only the sandbox ledger: production's is first reached here, at an address where
    // nothing listens.
    const { freePort } = await import('../../local/ports.ts');
    const { resetConfig } = await import('../../lib/config.ts');
    const before = process.env.HORIZON_URL_PRODUCTION;
    process.env.HORIZON_URL_PRODUCTION = `http://127.0.0.1:${await freePort()}`;
    resetConfig();
    try {
      const answer = await invoke({ action: 'status', environment: 'production' });
      assert.equal(answer.ok, false);
      assert.match(String(answer.error), /^The ledger could not be read: .*run the same command again\.$/);
    } finally {
      process.env.HORIZON_URL_PRODUCTION = before;
      resetConfig();
    }
  });
});
