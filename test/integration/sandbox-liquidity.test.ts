// A new stage's sandbox, as the deployed-sandbox walkthrough brings it up, then `admin ledger
// sandbox-liquidity` through the ledger admin function: its assets' issuers are new, so the stack's
// sandbox ledger (the test network's stand-in) holds no pool for them and a swap between them finds no
// path; filled, the pools hold the reference rates, `ledger status` shows their reserves, a second run
// submits nothing, and the swap completes. A table of this file's own stands for the new stage.
import assert from 'node:assert/strict';
import { Horizon } from '@stellar/stellar-sdk';
import { beforeAll, describe, it } from 'vitest';
import { lambdaContext } from '../../local/lambda-event.ts';
import { useOwnTable } from '../../local/stack.ts';

type Handler = (
  event: unknown,
  context: ReturnType<typeof lambdaContext>,
) => Promise<Record<string, unknown>>;
// biome-ignore lint/suspicious/noExplicitAny: reports are asserted on field by field.
type Report = any;

describe('sandbox liquidity on a new stage', () => {
  let handler: Handler;
  const server = new Horizon.Server(String(process.env.TEST_HORIZON_URL), { allowHttp: true });
  const invoke = async (event: unknown): Promise<Report> =>
    handler(event, lambdaContext('ledger-admin', 60_000));
  const succeeded = async (event: unknown): Promise<Report> => {
    const answer = await invoke(event);
    assert.equal(answer.ok, true, String(answer.error));
    return answer.report;
  };
  const fill = { action: 'open-sandbox-liquidity' };

  beforeAll(async () => {
    await useOwnTable('test-sandbox-liquidity');
    ({ handler } = (await import('../../functions/admin/ledger-accounts.ts')) as unknown as {
      handler: Handler;
    });
  });

  /** A sandbox wallet of the platform's holding 100 USDC (minted by the issuer), the swap's source. */
  async function walletWithUsdc() {
    const { ensurePlatformAccount } = await import('../../lib/ledger/platform-accounts.ts');
    const { activateAccount, pay } = await import('../../lib/ledger/operations.ts');
    const { findAsset } = await import('../../lib/assets/repo.ts');
    const usdc = await findAsset('sandbox', 'USDC');
    assert.ok(usdc?.assetIssuer);
    const usd = { code: 'USDC', issuer: usdc.assetIssuer };
    const wallet = await ensurePlatformAccount('sandbox', 'distributor:USDC');
    const opened = await activateAccount({
      environment: 'sandbox',
      intentId: 'test-swapper-open',
      account: wallet,
      trustline: usd,
    });
    assert.equal(opened.status, 'succeeded');
    const minted = await pay({
      environment: 'sandbox',
      intentId: 'test-swapper-usdc',
      from: await ensurePlatformAccount('sandbox', 'issuer:USDC'),
      to: wallet.publicKey,
      asset: usd,
      amount: '100',
    });
    assert.equal(minted.status, 'succeeded');
    return { wallet, usd };
  }

  it('refuses before the stage has a funded funding account, saying what to do', async () => {
    const answer = await invoke(fill);
    assert.equal(answer.ok, false);
    assert.match(String(answer.error), /^The sandbox funding account G[A-Z0-9]{55} is not open on /);
  });

  it('fills the sandbox pools once at the reference rates, after which a swap between sandbox assets completes', async () => {
    const { funding } = await succeeded({ action: 'status', environment: 'sandbox' });
    await server.friendbot(funding.publicKey).call();
    await succeeded({ action: 'open-channels', environment: 'sandbox', count: 2 });
    await succeeded({ action: 'open-sandbox-assets' });
    const before = await succeeded({ action: 'status', environment: 'sandbox' });
    assert.deepEqual(
      before.pools.map((pool: Report) => [pool.pair, pool.reserves]),
      [
        ['XLM/USDC', null],
        ['XLM/EURC', null],
        ['EURC/USDC', null],
      ],
    );

    // No liquidity: no quote, and a swap fails before anything is submitted.
    const { wallet, usd } = await walletWithUsdc();
    const { findAsset } = await import('../../lib/assets/repo.ts');
    const eurc = await findAsset('sandbox', 'EURC');
    assert.ok(eurc?.assetIssuer);
    const eur = { code: 'EURC', issuer: eurc.assetIssuer };
    const { strictSendPaths } = await import('../../lib/ledger/reads.ts');
    assert.deepEqual(await strictSendPaths('sandbox', usd, '10', [eur]), []);
    const { executePayment } = await import('../../lib/ledger/payments.ts');
    const swap = (intentId: string) =>
      executePayment({
        environment: 'sandbox',
        intentId,
        legs: [
          {
            from: wallet,
            to: wallet.publicKey,
            custodialDestination: wallet,
            sendAsset: usd,
            amount: '10',
            receiveAsset: eur,
          },
        ],
        slippage: '0.01',
      });
    const refused = await swap('test-swap-before');
    assert.equal(refused.status, 'failed');
    assert.equal(refused.status === 'failed' && refused.errorCode, 'LEDGER_NO_PATH');

    const filled = await succeeded(fill);
    assert.ok(filled.openedBy);
    assert.equal(filled.summary, 'Filled XLM/USDC, XLM/EURC, EURC/USDC at the reference rates.');
    const reserves = [
      ['XLM/USDC', { XLM: '1000.0000000', USDC: '120.0000000' }],
      ['XLM/EURC', { XLM: '1000.0000000', EURC: '111.0000000' }],
      ['EURC/USDC', { EURC: '100000.0000000', USDC: '108000.0000000' }],
    ];
    assert.deepEqual(
      filled.pools.map((pool: Report) => [pool.pair, pool.reserves]),
      reserves,
    );
    const status = await succeeded({ action: 'status', environment: 'sandbox' });
    assert.deepEqual(
      status.pools.map((pool: Report) => [pool.pair, pool.reserves]),
      reserves,
    );

    // Again: nothing is empty, so nothing is submitted (the funding account, which pays every fee,
    // holds what it held) and the report says so.
    const held = (await succeeded({ action: 'status', environment: 'sandbox' })).funding.xlm;
    const again = await succeeded(fill);
    assert.equal(again.openedBy, null);
    assert.equal(again.summary, 'Every sandbox pool already holds liquidity: nothing was submitted.');
    assert.deepEqual(again.pools, filled.pools);
    assert.equal((await succeeded({ action: 'status', environment: 'sandbox' })).funding.xlm, held);

    // The swap now finds the EURC/USDC pool and completes at about its rate (1 EURC = 1.08 USDC).
    const [best] = await strictSendPaths('sandbox', usd, '10', [eur]);
    assert.ok(best);
    assert.deepEqual(best.path, []);
    const swapped = await swap('test-swap-after');
    assert.equal(swapped.status, 'succeeded', JSON.stringify(swapped));
    const { accountBalances } = await import('../../lib/ledger/balances.ts');
    const balances = (await accountBalances('sandbox', wallet.publicKey)).balances;
    const received = Number(balances.find((b) => b.assetCode === 'EURC')?.balance);
    assert.ok(received > 9.2 && received < 9.26, `received ${received} EURC for 10 USDC`);
    assert.equal(balances.find((b) => b.assetCode === 'USDC')?.balance, '90.0000000');
  });
});
