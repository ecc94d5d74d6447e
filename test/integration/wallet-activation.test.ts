// Activation under crashes and retries: never an account without a wallet record, never two
// accounts (or two ledger transactions) for one wallet. Drives the worker's code directly against
// the real DynamoDB Local and the real local ledger of the test stack.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it, onTestFinished } from 'vitest';
import { horizon, newTenant } from '../support/api.ts';
import { captureLogs } from '../support/logs.ts';
import { recordWallet } from '../support/wallet-records.ts';

describe('wallet activation', () => {
  it('drops a message whose wallet is not recorded (no insert sent it), opening no account', async () => {
    const { activateWallet } = await import('../../lib/wallets/activation.ts');
    const tenant = await newTenant();
    const message = {
      environment: 'sandbox' as const,
      associationId: tenant.associationId,
      walletId: randomUUID(),
    };
    const logs = captureLogs();
    onTestFinished(() => logs.restore());
    // Resolving (not throwing) is what lets the worker delete the message: no retry waits for a record.
    await activateWallet({ ...message, requestedAt: new Date().toISOString() }, new Date());
    // Dropped, and said so; no ledger submission was recorded for the wallet (every opening is one).
    const dropped = logs.lines.filter((line) => line.message === 'Activation dropped: no such wallet');
    assert.deepEqual(
      dropped.map((line) => [line.level, line.walletId]),
      [['WARN', message.walletId]],
    );
    const { findSubmission } = await import('../../lib/ledger/submissions.ts');
    assert.equal(await findSubmission('sandbox', `wallet-activation:${message.walletId}`), undefined);
  });

  it('retried and concurrent activations of one recorded wallet open exactly one account', async () => {
    const { activateWallet } = await import('../../lib/wallets/activation.ts');
    const { findWallet } = await import('../../lib/wallets/repo.ts');
    const { platformAccount } = await import('../../lib/ledger/platform-accounts.ts');
    const { channelPool } = await import('../../lib/ledger/channels.ts');
    const { findAsset } = await import('../../lib/assets/repo.ts');

    const tenant = await newTenant();
    const scope = { environment: 'sandbox' as const, associationId: tenant.associationId };
    const usdc = await findAsset('sandbox', 'USDC');
    assert.ok(usdc?.assetIssuer);
    // Written straight to the table: its insert also reaches the stack's outbox, whose worker races the
    // activations below (one more concurrent delivery).
    const { walletId, publicKey } = await recordWallet(scope, {
      walletName: 'Crash',
      assetCode: 'USDC',
      assetIssuer: usdc.assetIssuer,
      networkName: usdc.networkName,
    });
    const now = new Date();

    const message = { ...scope, walletId, requestedAt: now.toISOString() };
    await Promise.allSettled([activateWallet(message, new Date()), activateWallet(message, new Date())]);
    await activateWallet(message, new Date()); // a redelivery after both
    await activateWallet(message, new Date());

    const record = await findWallet(scope, walletId);
    assert.equal(record?.activationStatus, 'active');
    const account = await horizon(`/accounts/${publicKey}`);
    assert.equal(account.id, publicKey);
    assert.ok(account.balances.some((b: { asset_code?: string }) => b.asset_code === 'USDC'));
    const operations = (await horizon(`/accounts/${publicKey}/operations?limit=200`))._embedded.records as {
      type: string;
      transaction_hash: string;
    }[];
    const created = operations.filter((o) => o.type === 'create_account');
    assert.equal(created.length, 1);
    assert.equal(operations.filter((o) => o.type === 'change_trust').length, 1);
    // Built on a channel account, its fee paid by the funding account.
    const opening = await horizon(`/transactions/${created[0]?.transaction_hash}`);
    const funding = await platformAccount('sandbox', 'funding');
    const pool = (await channelPool('sandbox')).map((channel) => channel.publicKey);
    assert.equal(opening.fee_account, funding.publicKey);
    assert.ok(pool.includes(opening.source_account), opening.source_account);
  });

  it('an activation the platform could not pay (its funding account short of lumens) waits for funds and is retried, never failed for good', async () => {
    const { findWallet } = await import('../../lib/wallets/repo.ts');
    const { replaceSubmission, findSubmission } = await import('../../lib/ledger/submissions.ts');
    const tenant = await newTenant();
    const scope = { environment: 'sandbox' as const, associationId: tenant.associationId };
    const walletId = randomUUID();
    // The first opening, failed in a closed ledger because the funding account could not pay the new
    // account's starting balance (the drain of issue 36): its intent holds that outcome for good.
    const at = new Date().toISOString();
    const written = await replaceSubmission(
      {
        environment: 'sandbox',
        intentId: `wallet-activation:${walletId}`,
        status: 'failed',
        attempt: 1,
        hash: null,
        envelopeXdr: null,
        maxTime: null,
        envelopes: [],
        provenDead: 0,
        errorCode: 'LEDGER_OP_UNDERFUNDED',
        failureReason: 'The source wallet does not hold enough of the asset.',
        createdAt: at,
        updatedAt: at,
      },
      undefined,
    );
    assert.equal(written.written, true);
    // Its insert asks the stack's outbox for the activation, as POST /wallets does; funds are back now.
    const { publicKey } = await recordWallet(scope, { walletId });
    let record = await findWallet(scope, walletId, { consistent: true });
    for (let i = 0; i < 150 && record?.activationStatus === 'pending'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      record = await findWallet(scope, walletId, { consistent: true });
    }
    assert.equal(record?.activationStatus, 'active', JSON.stringify(record));
    assert.equal((await horizon(`/accounts/${publicKey}`)).id, publicKey);
    // Opened by the retry's own intent: the first keeps its failure, so nothing can land twice.
    assert.equal((await findSubmission('sandbox', `wallet-activation:${walletId}:1`))?.status, 'succeeded');
  });
});
