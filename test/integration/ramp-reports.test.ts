// What a ramp's record does with its provider's reports when they come in any order and at the same
// moment, and with the reports the contract's meaning decides (issue #35 §1, §3): a collection that
// completed is always credited, once; a payout that fails after it completed is refunded; a collection
// cannot be returned. The reports are the provider's own signed notifications, sent to the gateway's
// provider route as the simulator sends them.
import assert from 'node:assert/strict';
import BigNumber from 'bignumber.js';
import { beforeAll, describe, it } from 'vitest';
import { findPlatformAccount } from '../../lib/ledger/platform-accounts.ts';
import { applyProviderState } from '../../lib/payments/ramps/provider-state.ts';
import { findTransaction } from '../../lib/payments/repo.ts';
import { as, type Caller, newCaller } from '../support/api.ts';
import { compliantIndividual, ONRAMP_CONNECTOR_ID, RAMP_CONNECTOR_ID } from '../support/fixtures.ts';
import { balancesOf, operationsOf, ownWallet, recordWhen } from '../support/payments.ts';
import { heldOfframp, heldOnramp, newCounterparty, reportInstruction } from '../support/ramps.ts';

/** At most this many on-ramps are set up at once (each is a quote, a submission and a wait). */
const SETUP_CONCURRENCY = 20;

async function inBatches<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size)
    results.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return results;
}

describe('ramp records and their provider’s reports', () => {
  let caller: Caller;

  beforeAll(async () => {
    caller = await newCaller();
  });

  it('200 collections whose processing and completed reports come in both orders and at once: each completed and credited exactly once', async () => {
    const wallet = await ownWallet(caller, 'USDC');
    const payer = await newCounterparty(caller, { ...compliantIndividual, idCountryIsoCode2: 'KE' });
    const before = await balancesOf(wallet.publicKey);
    const orders = ['processing-then-completed', 'completed-then-processing', 'at-once'] as const;
    // Held (toRef HOLD…): the simulator waits for the reports this test sends in its place.
    const held = await inBatches([...Array(200).keys()], SETUP_CONCURRENCY, async (i) => {
      const { id, quote } = await heldOnramp(caller, { walletId: wallet.id, payer }, 100, `HOLD-RACE-${i}`);
      const record = await recordWhen(caller, id, (r) => r.externalReference !== null, 120_000);
      return {
        id,
        providerReference: record.externalReference as string,
        receiveAmount: quote.receiveAmount,
      };
    });
    const report = (id: string, providerReference: string, status: 'processing' | 'completed') =>
      reportInstruction(ONRAMP_CONNECTOR_ID, {
        kind: 'collection',
        reference: id,
        providerReference,
        status,
      });
    const answers = await Promise.all(
      held.map(async ({ id, providerReference }, i) => {
        const order = orders[i % orders.length];
        if (order === 'at-once')
          return Promise.all([
            report(id, providerReference, 'processing'),
            report(id, providerReference, 'completed'),
          ]);
        const [first, second] =
          order === 'processing-then-completed'
            ? (['processing', 'completed'] as const)
            : (['completed', 'processing'] as const);
        return [await report(id, providerReference, first), await report(id, providerReference, second)];
      }),
    );
    assert.deepEqual(new Set(answers.flat()), new Set([200]));
    const settlement = (await findPlatformAccount('sandbox', `settlement:${ONRAMP_CONNECTOR_ID}`))?.publicKey;
    const records = await inBatches(held, SETUP_CONCURRENCY, ({ id }) =>
      recordWhen(caller, id, (r) => r.status === 'completed', 120_000),
    );
    // One ledger payment each, its own, of exactly what its quote promised.
    assert.equal(new Set(records.map((r) => r.stellarTxHash)).size, 200);
    for (const [i, record] of records.entries()) {
      const payments = (await operationsOf(record.stellarTxHash)).filter((op) => op.type === 'payment');
      assert.deepEqual(
        payments.map((p) => [p.from, p.to, (p as { amount?: string }).amount]),
        [[settlement, wallet.publicKey, new BigNumber(held[i]?.receiveAmount).toFixed(7)]],
      );
    }
    const credited = held.reduce((total, h) => total.plus(h.receiveAmount), new BigNumber(before.USDC ?? 0));
    assert.equal((await balancesOf(wallet.publicKey)).USDC, credited.toFixed(7));
  }, 600_000);

  it('a report decided on a stale read never undoes a later one: completed, then processing decided before it → credited once', async () => {
    const wallet = await ownWallet(caller, 'USDC');
    const payer = await newCounterparty(caller, { ...compliantIndividual, idCountryIsoCode2: 'KE' });
    const before = await balancesOf(wallet.publicKey);
    const { id, quote } = await heldOnramp(caller, { walletId: wallet.id, payer }, 300, 'HOLD-STALE');
    // Two notifications handled side by side: both read the record as soon as the provider holds the
    // collection (before its own processing report, 100 ms later); completed writes first.
    const tenant = { environment: 'sandbox' as const, associationId: caller.tenant.associationId };
    let read = await findTransaction(tenant, id, { consistent: true });
    while (!read?.externalReference) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      read = await findTransaction(tenant, id, { consistent: true });
    }
    assert.notEqual(read.providerStatus, 'processing', 'read before the provider’s processing report');
    const held = read;
    const state = (status: 'processing' | 'completed') => ({
      reference: id,
      providerReference: held.externalReference as string,
      status,
      reason: null,
    });
    await applyProviderState(tenant, read, state('completed'), new Date());
    await applyProviderState(tenant, read, state('processing'), new Date());
    const record = await recordWhen(caller, id, (r) => r.status === 'completed');
    const payments = (await operationsOf(record.stellarTxHash)).filter((op) => op.type === 'payment');
    assert.equal(payments.length, 1);
    assert.equal(
      (await balancesOf(wallet.publicKey)).USDC,
      new BigNumber(before.USDC ?? 0).plus(quote.receiveAmount).toFixed(7),
    );
  });

  it('a payout reported failed after it completed is a return: failed and refunded once, to the stroop', async () => {
    const wallet = await ownWallet(caller, 'USDC', 50);
    const before = await balancesOf(wallet.publicKey);
    const { id, providerReference } = await heldOfframp(caller, wallet.id, 'HOLD-LATE-FAIL');
    const report = (status: 'completed' | 'failed') =>
      reportInstruction(RAMP_CONNECTOR_ID, {
        kind: 'payout',
        reference: id,
        providerReference,
        status,
        reason: status === 'failed' ? 'The bank reversed the credit.' : null,
      });
    assert.equal(await report('completed'), 200);
    await recordWhen(caller, id, (r) => r.status === 'completed');
    assert.equal(await report('failed'), 200);
    const record = await recordWhen(caller, id, (r) => r.status === 'refund_completed');
    assert.equal(record.errorCode, 'PAYOUT_FAILED_AFTER_COMPLETION');
    assert.equal(record.failureReason, 'The bank reversed the credit.');
    assert.equal(record.completedAt, null);
    assert.equal((await balancesOf(wallet.publicKey)).USDC, before.USDC);
  });

  it('the sandbox cannot return a collection: 409, and the collection completes and is credited', async () => {
    const wallet = await ownWallet(caller, 'USDC');
    const payer = await newCounterparty(caller, { ...compliantIndividual, idCountryIsoCode2: 'KE' });
    const { id } = await heldOnramp(caller, { walletId: wallet.id, payer }, 200, 'HOLD-RETURN');
    await recordWhen(caller, id, (r) => r.externalReference !== null);
    const completed = await as(caller, `/sandbox/transactions/${id}/complete`, { method: 'POST' });
    assert.equal(completed.status, 202, JSON.stringify(completed.body));
    const returned = await as(caller, `/sandbox/transactions/${id}/return`, { method: 'POST' });
    assert.equal(returned.status, 409, JSON.stringify(returned.body));
    assert.match(returned.body.detail, /Only an off-ramp’s payout can be returned/);
    const record = await recordWhen(caller, id, (r) => r.status === 'completed');
    assert.ok(record.stellarTxHash);
  });
});
