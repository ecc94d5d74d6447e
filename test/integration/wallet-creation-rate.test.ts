// Each wallet's ledger reserve is the platform's XLM: one association creates at most
// WALLET_CREATE_LIMIT wallets a window (lib/wallets/service.ts), counted in its own partition, so it can
// neither lock up the funding account nor spend another association's window. The service itself, on
// the stack's DynamoDB Local, with a limit of 3 (the stack's own is 1,000 an hour, too many to reach here).
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { resetConfig } from '../../lib/config.ts';
import { Problem } from '../../lib/http/problem.ts';
import { createWallet, listWallets } from '../../lib/wallets/service.ts';
import { type Caller, newCaller } from '../support/api.ts';

const LIMIT = 3;

describe('wallet creation per association', () => {
  let alice: Caller;
  let bob: Caller;

  beforeAll(async () => {
    process.env.WALLET_CREATE_LIMIT = String(LIMIT);
    resetConfig();
    [alice, bob] = await Promise.all([newCaller(), newCaller()]);
  });
  afterAll(() => {
    delete process.env.WALLET_CREATE_LIMIT;
    resetConfig();
  });

  const create = (caller: Caller, assetCode = 'USDC') =>
    createWallet(caller.tenant, { walletName: 'rate', assetCode, ownAccount: true }, new Date());

  it('answers 429 with Retry-After past the limit, writes nothing, and leaves other associations alone', async () => {
    // A refused request (an asset not in the registry) is no creation and does not count.
    await assert.rejects(
      create(alice, 'NOPE'),
      (error: unknown) => error instanceof Problem && error.status === 422,
    );
    const created = await Promise.all(
      Array.from({ length: LIMIT + 2 }, () =>
        create(alice).then(
          () => 'created',
          (error: unknown) => {
            assert.ok(error instanceof Problem && error.status === 429, String(error));
            const retryAfter = Number(error.headers['Retry-After']);
            assert.ok(retryAfter >= 1 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
            assert.match(error.detail, /created 3 wallets in the last 3600 seconds/);
            return 'refused';
          },
        ),
      ),
    );
    assert.deepEqual(
      [created.filter((c) => c === 'created').length, created.filter((c) => c === 'refused').length],
      [LIMIT, 2],
      'exactly the limit, however many at once',
    );
    const listed = await listWallets(alice.tenant, { limit: 100 });
    assert.equal(listed.data.length, LIMIT, 'nothing written for a refused one');
    await create(bob);
  });
});
