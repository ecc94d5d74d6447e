// Activation under crashes and retries: never an account without a wallet record, never two
// accounts (or two ledger transactions) for one wallet. Drives the worker's code directly against
// the real DynamoDB Local and the real local ledger of the test stack.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'vitest';
import { horizon, newTenant } from '../support/api.ts';

describe('wallet activation', () => {
  it('opens no account for a message whose wallet was never recorded, and drops it once abandoned', async () => {
    const { activateWallet, ActivationNotFinished } = await import('../../lib/wallets/activation.ts');
    const tenant = await newTenant();
    const message = {
      environment: 'sandbox' as const,
      associationId: tenant.associationId,
      walletId: randomUUID(),
    };
    const now = new Date();
    await assert.rejects(
      activateWallet({ ...message, requestedAt: now.toISOString() }, now),
      ActivationNotFinished,
    );
    const longAgo = new Date(now.getTime() - 10 * 60 * 1000).toISOString();
    // Resolving (not throwing) is what lets the worker delete the message.
    await activateWallet({ ...message, requestedAt: longAgo }, now);
    // Neither attempt recorded a ledger submission for the wallet, nor a wallet record.
    const { findSubmission } = await import('../../lib/ledger/submissions.ts');
    const { findWallet } = await import('../../lib/wallets/repo.ts');
    assert.equal(await findSubmission('sandbox', `wallet-activation:${message.walletId}`), undefined);
    assert.equal(await findWallet(message, message.walletId), undefined);
  });

  it('retried and concurrent activations of one recorded wallet open exactly one account', async () => {
    const { activateWallet } = await import('../../lib/wallets/activation.ts');
    const { putWallet, findWallet } = await import('../../lib/wallets/repo.ts');
    const { newAccountKeys } = await import('../../lib/ledger/custody.ts');
    const { platformAccount } = await import('../../lib/ledger/platform-accounts.ts');
    const { channelPool } = await import('../../lib/ledger/channels.ts');
    const { findAsset } = await import('../../lib/assets/repo.ts');

    const tenant = await newTenant();
    const scope = { environment: 'sandbox' as const, associationId: tenant.associationId };
    const usdc = await findAsset('sandbox', 'USDC');
    assert.ok(usdc?.assetIssuer);
    const keys = await newAccountKeys();
    const walletId = randomUUID();
    const now = new Date();
    // As if POST /wallets crashed after writing the record: no message was ever consumed for it.
    await putWallet({
      walletId,
      ...scope,
      walletName: 'Crash',
      assetCode: 'USDC',
      assetIssuer: usdc.assetIssuer,
      ownAccount: true,
      status: 'Verified',
      networkName: usdc.networkName,
      publicKey: keys.publicKey,
      sealedSecret: keys.sealedSecret,
      metadata: null,
      activationStatus: 'pending',
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    });

    const message = { ...scope, walletId, requestedAt: now.toISOString() };
    await Promise.allSettled([activateWallet(message, new Date()), activateWallet(message, new Date())]);
    await activateWallet(message, new Date()); // a redelivery after both
    await activateWallet(message, new Date());

    const record = await findWallet(scope, walletId);
    assert.equal(record?.activationStatus, 'active');
    const account = await horizon(`/accounts/${keys.publicKey}`);
    assert.equal(account.id, keys.publicKey);
    assert.ok(account.balances.some((b: { asset_code?: string }) => b.asset_code === 'USDC'));
    const operations = (await horizon(`/accounts/${keys.publicKey}/operations?limit=200`))._embedded
      .records as { type: string; transaction_hash: string }[];
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
});
