// The wallets a payment signs with (lib/wallets/signing-wallets.ts, issue #40): a wallet recorded active
// is held for the execution environment, so a warm ledger-submitter reads none of the wallets it has
// paid between before; everything else is read at every call, strongly consistent, so the held read
// loses nothing the submitter's wallet read protected: an activation is seen at once, a wallet not
// (yet) found is waited for, and a wallet is found only under the tenant that owns it. Against the
// stack's DynamoDB Local; the reads are counted as they leave the process.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import { beforeAll, describe, it } from 'vitest';
import type { Tenant } from '../../lib/tenant.ts';
import { recordPendingWithoutOutbox, recordWallet } from '../support/wallet-records.ts';

type SigningWallets = typeof import('../../lib/wallets/signing-wallets.ts');
type Repo = typeof import('../../lib/wallets/repo.ts');

/** DynamoDB reads (any kind) this process sends while `work` runs, and what `work` returned. */
async function readsDuring<T>(work: () => Promise<T>): Promise<{ reads: number; value: T }> {
  let reads = 0;
  const onRequest = (message: unknown) => {
    const target = (message as { request: ClientRequest }).request.getHeader('x-amz-target');
    if (typeof target === 'string' && /\.(GetItem|BatchGetItem|Query)$/.test(target)) reads += 1;
  };
  subscribe('http.client.request.start', onRequest);
  try {
    return { value: await work(), reads };
  } finally {
    unsubscribe('http.client.request.start', onRequest);
  }
}

const newScope = (): Tenant => ({ environment: 'sandbox', associationId: `test-signing-${randomUUID()}` });

describe('the wallets a payment signs with', () => {
  let signing: SigningWallets;
  let repo: Repo;

  beforeAll(async () => {
    signing = await import('../../lib/wallets/signing-wallets.ts');
    repo = await import('../../lib/wallets/repo.ts');
  });

  it('reads active wallets once, in one read, then holds them', async () => {
    const tenant = newScope();
    const payer = await recordWallet(tenant, { activationStatus: 'active' });
    const payee = await recordWallet(tenant, { activationStatus: 'active' });
    const ids = [payer.walletId, payee.walletId, payer.walletId];
    const first = await readsDuring(() => signing.findSigningWallets(tenant, ids));
    assert.equal(first.reads, 1);
    assert.deepEqual(
      first.value.map((w) => [w.walletId, w.publicKey, w.activationStatus]).sort(),
      [
        [payer.walletId, payer.publicKey, 'active'],
        [payee.walletId, payee.publicKey, 'active'],
      ].sort(),
    );
    assert.deepEqual(
      first.value.find((w) => w.walletId === payer.walletId)?.sealedSecret,
      payer.sealedSecret,
    );
    const again = await readsDuring(() => signing.findSigningWallets(tenant, ids));
    assert.equal(again.reads, 0);
    assert.deepEqual(again.value.sort(), first.value.sort());
  });

  it('reads a pending wallet at every call, and sees its activation at once', async () => {
    const tenant = newScope();
    const opening = await recordPendingWithoutOutbox(tenant);
    for (let i = 0; i < 2; i++) {
      const pending = await readsDuring(() => signing.findSigningWallets(tenant, [opening.walletId]));
      assert.equal(pending.reads, 1);
      assert.equal(pending.value[0]?.activationStatus, 'pending');
    }
    await repo.recordActivation(tenant, opening.walletId, { status: 'active' }, new Date());
    const opened = await readsDuring(() => signing.findSigningWallets(tenant, [opening.walletId]));
    assert.equal(opened.reads, 1);
    assert.equal(opened.value[0]?.activationStatus, 'active');
    assert.equal((await readsDuring(() => signing.findSigningWallets(tenant, [opening.walletId]))).reads, 0);
  });

  it('reads a failed wallet at every call', async () => {
    const tenant = newScope();
    const failed = await recordPendingWithoutOutbox(tenant);
    await repo.recordActivation(
      tenant,
      failed.walletId,
      { status: 'failed', errorCode: 'LEDGER_FAILED', failureReason: 'refused' },
      new Date(),
    );
    for (let i = 0; i < 2; i++) {
      const read = await readsDuring(() => signing.findSigningWallets(tenant, [failed.walletId]));
      assert.equal(read.reads, 1);
      assert.equal(read.value[0]?.activationStatus, 'failed');
    }
  });

  it('holds a wallet under its own tenant only: another finds nothing, however often it asks', async () => {
    const owner = newScope();
    const wallet = await recordWallet(owner, { activationStatus: 'active' });
    assert.equal((await signing.findSigningWallets(owner, [wallet.walletId])).length, 1);
    const other = newScope();
    for (let i = 0; i < 2; i++) {
      const read = await readsDuring(() => signing.findSigningWallets(other, [wallet.walletId]));
      assert.equal(read.reads, 1, 'a wallet not found is never held');
      assert.deepEqual(read.value, []);
    }
  });
});
