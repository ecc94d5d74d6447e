// Strict-send paths and payment history read through the adapter from the test stack's sandbox ledger.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'vitest';

describe('ledger reads', () => {
  it('prices strict-send paths from the seeded pools, best first', async () => {
    const { strictSendPaths } = await import('../../lib/ledger/reads.ts');
    const { findAsset } = await import('../../lib/assets/repo.ts');
    const usdc = await findAsset('sandbox', 'USDC');
    const eurc = await findAsset('sandbox', 'EURC');
    assert.ok(usdc?.assetIssuer && eurc?.assetIssuer);
    const source = { code: 'USDC', issuer: usdc.assetIssuer };
    const paths = await strictSendPaths('sandbox', source, '100', [
      { code: 'EURC', issuer: eurc.assetIssuer },
      'native',
    ]);
    assert.ok(paths.length >= 2, JSON.stringify(paths));
    const toEurc = paths.find((p) => p.destinationAsset !== 'native' && p.destinationAsset.code === 'EURC');
    assert.ok(toEurc);
    // The USDC/EURC pool is priced near 1.08 USDC per EUR: 100 USDC buys a little under 92.6 EURC.
    const received = Number(toEurc.destinationAmount);
    assert.ok(received > 85 && received < 92.6, `${received}`);
    for (let i = 1; i < paths.length; i++) {
      assert.ok(Number(paths[i - 1]?.destinationAmount) >= Number(paths[i]?.destinationAmount));
    }
    await assert.rejects(strictSendPaths('sandbox', source, '0.123456789', ['native']), {
      name: 'LedgerInputError',
    });
  });

  it('pages an account’s payments with cursors', async () => {
    const { accountPayments } = await import('../../lib/ledger/reads.ts');
    const { newAccountKeys } = await import('../../lib/ledger/custody.ts');
    const { activateAccount, pay } = await import('../../lib/ledger/operations.ts');
    const { platformAccount } = await import('../../lib/ledger/platform-accounts.ts');
    const wallet = await newAccountKeys('sandbox');
    const activated = await activateAccount({
      environment: 'sandbox',
      intentId: `test-reads:${randomUUID()}`,
      account: wallet,
      trustline: null,
    });
    assert.equal(activated.status, 'succeeded');
    const funding = await platformAccount('sandbox', 'funding');
    for (const amount of ['1', '2', '3']) {
      const paid = await pay({
        environment: 'sandbox',
        intentId: `test-reads:${randomUUID()}`,
        from: funding,
        to: wallet.publicKey,
        asset: 'native',
        amount,
      });
      assert.equal(paid.status, 'succeeded');
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await accountPayments('sandbox', wallet.publicKey, {
        limit: 2,
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.records.map((r) => `${r.type}:${r.amount}`));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    assert.deepEqual(seen, [
      'create_account:1.0000000',
      'payment:1.0000000',
      'payment:2.0000000',
      'payment:3.0000000',
    ]);
  });
});
