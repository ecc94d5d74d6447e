// What a payment's acceptance asks of DynamoDB (issue #40): the paying and the receiving wallet of a
// P2P between own wallets are read in one strongly consistent BatchGetItem, not a GetItem each, and their
// checks still refuse as before, the paying wallet's first. In this file's process, against the stack's
// DynamoDB Local, on a table of this file's own (its records ask the stack's workers for nothing); the
// wallets have no ledger account, so the spendable check is left to the ledger (spendable.ts). The
// requests are counted as they leave the process.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, it } from 'vitest';
import type { Asset } from '../../lib/assets/schema.ts';
import { resetConfig } from '../../lib/config.ts';
import type { Problem } from '../../lib/http/problem.ts';
import type { Tenant } from '../../lib/tenant.ts';
import type { WalletRecord } from '../../lib/wallets/repo.ts';
import { useOwnTable } from '../../local/stack.ts';
import { dynamoDbCallsDuring } from '../support/dynamodb-calls.ts';

type Transfers = typeof import('../../lib/payments/transfers.ts');

const ledgerAddress = () => `G${randomUUID().replaceAll('-', '').toUpperCase().padEnd(55, 'A').slice(0, 55)}`;

describe('a P2P acceptance’s calls', () => {
  let transfers: Transfers;
  const tenant: Tenant = { environment: 'sandbox', associationId: randomUUID() };
  const wallet = (status: WalletRecord['status']): WalletRecord => ({
    walletId: randomUUID(),
    ...tenant,
    walletName: 'Calls',
    assetCode: 'USDC',
    assetIssuer: null,
    ownAccount: true,
    status,
    networkName: 'stellar',
    publicKey: ledgerAddress(),
    sealedSecret: {} as WalletRecord['sealedSecret'],
    metadata: null,
    activationStatus: 'active',
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
  });
  let from: WalletRecord;
  let to: WalletRecord;
  let pending: WalletRecord;
  const pay = (body: Partial<{ walletId: string; destinationWalletId: string }>) =>
    transfers.payP2pOwn(
      tenant,
      {
        transactionId: randomUUID(),
        walletId: from.walletId,
        destinationWalletId: to.walletId,
        sendingAssetCode: 'USDC',
        amount: 1,
        ...body,
      },
      new Date(),
    );
  const refusal = (work: Promise<unknown>) =>
    work.then(
      () => assert.fail('accepted'),
      (error: Problem) => ({ status: error.status, fields: error.errors?.map((e) => e.field) }),
    );

  beforeAll(async () => {
    // Every request reads the registry asset afresh (the test stack's bound): counted below.
    process.env.REFERENCE_MAX_AGE_SECONDS = '0';
    await useOwnTable('test-acceptance-calls');
    resetConfig();
    transfers = await import('../../lib/payments/transfers.ts');
    const { putWallet } = await import('../../lib/wallets/repo.ts');
    const { putAsset } = await import('../../lib/assets/repo.ts');
    const { seedRegistries } = await import('../../lib/assets/registry-seed.ts');
    const usdc = seedRegistries.sandbox.find((asset) => asset.assetCode === 'USDC') as Asset;
    await putAsset('sandbox', usdc);
    [from, to, pending] = [wallet('Verified'), wallet('Verified'), wallet('Pending')];
    for (const w of [from, to, pending]) await putWallet(w);
  });

  it('reads both wallets in one call: the asset, the wallets, the wallet entries, the record', async () => {
    const calls = await dynamoDbCallsDuring(async () => {
      const accepted = await pay({});
      assert.equal(accepted.isIdempotent, false);
    });
    assert.deepEqual(calls, { GetItem: 1, BatchGetItem: 1, BatchWriteItem: 1, PutItem: 1 });
  });

  it('still refuses each wallet as before, naming it, the paying wallet first', async () => {
    assert.deepEqual(await refusal(pay({ destinationWalletId: randomUUID() })), {
      status: 404,
      fields: ['destinationWalletId'],
    });
    assert.deepEqual(await refusal(pay({ destinationWalletId: pending.walletId })), {
      status: 403,
      fields: ['destinationWalletId'],
    });
    assert.deepEqual(await refusal(pay({ walletId: randomUUID(), destinationWalletId: pending.walletId })), {
      status: 404,
      fields: ['walletId'],
    });
    // Another tenant's wallet is as unknown as one that does not exist.
    const theirs: Tenant = { environment: 'sandbox', associationId: randomUUID() };
    const calls = await dynamoDbCallsDuring(async () =>
      assert.deepEqual(
        await refusal(
          transfers.payP2pOwn(
            theirs,
            {
              transactionId: randomUUID(),
              walletId: from.walletId,
              destinationWalletId: to.walletId,
              sendingAssetCode: 'USDC',
              amount: 1,
            },
            new Date(),
          ),
        ),
        { status: 404, fields: ['walletId'] },
      ),
    );
    // One read of both wallets, then a look for a record under the transactionId (a replay is answered
    // from its record whatever changed since); nothing written.
    assert.deepEqual(calls, { BatchGetItem: 1, GetItem: 1 });
  });
});
