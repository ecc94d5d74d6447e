// Money the platform owes is paid until it is paid (issue #35 §2): an on-ramp's credit and an off-ramp's
// refund that the ledger refuses (the settlement account underfunded) stay owed, are retried on fresh
// intents, show in `admin owed list`, and are paid exactly once when the account is funded again.
// The settlement accounts are the stack's own, emptied for a moment: another file's ramp on the same
// connector meanwhile is only paid a few seconds later, which is what this proves.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import { beforeAll, describe, it } from 'vitest';
import { listOwed, redriveOwed } from '../../lib/admin/owed.ts';
import { findAsset } from '../../lib/assets/repo.ts';
import { pay } from '../../lib/ledger/operations.ts';
import { ensurePlatformAccount } from '../../lib/ledger/platform-accounts.ts';
import { findTransaction, type TransactionRecord } from '../../lib/payments/repo.ts';
import { as, type Caller, newCaller } from '../support/api.ts';
import { compliantIndividual, ONRAMP_CONNECTOR_ID, RAMP_CONNECTOR_ID } from '../support/fixtures.ts';
import { balancesOf, operationsOf, ownWallet, recordWhen } from '../support/payments.ts';
import { heldOfframp, heldOnramp, newCounterparty } from '../support/ramps.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('money the platform owes', () => {
  let caller: Caller;
  let usdc: { code: string; issuer: string };

  beforeAll(async () => {
    caller = await newCaller();
    const asset = await findAsset('sandbox', 'USDC');
    assert.ok(asset?.assetIssuer);
    usdc = { code: 'USDC', issuer: asset.assetIssuer };
  });

  /** Sends all of a settlement account's USDC back to its issuer; returns how much, to fund it again. */
  async function emptySettlement(connectorId: string): Promise<string> {
    const settlement = await ensurePlatformAccount('sandbox', `settlement:${connectorId}`);
    const held = (await balancesOf(settlement.publicKey)).USDC ?? '0';
    const emptied = await pay({
      environment: 'sandbox',
      intentId: `test-empty-${randomUUID()}`,
      from: settlement,
      to: usdc.issuer,
      asset: usdc,
      amount: held,
    });
    assert.equal(emptied.status, 'succeeded');
    return held;
  }

  async function fundSettlement(connectorId: string, amount: string) {
    const settlement = await ensurePlatformAccount('sandbox', `settlement:${connectorId}`);
    const funded = await pay({
      environment: 'sandbox',
      intentId: `test-fund-${randomUUID()}`,
      from: await ensurePlatformAccount('sandbox', 'issuer:USDC'),
      to: settlement.publicKey,
      asset: usdc,
      amount,
    });
    assert.equal(funded.status, 'succeeded');
  }

  /** The record as the table holds it, once `done` holds of it. */
  async function storedWhen(id: string, done: (record: TransactionRecord) => boolean) {
    const tenant = { environment: 'sandbox' as const, associationId: caller.tenant.associationId };
    for (let waited = 0; waited < 60_000; waited += 100) {
      const record = await findTransaction(tenant, id, { consistent: true });
      if (record && done(record)) return record;
      await pause(100);
    }
    throw new Error(`Record ${id} never got there`);
  }

  it('an on-ramp credit the ledger refuses is owed, retried on a fresh intent, and paid once when funds are back', async () => {
    const wallet = await ownWallet(caller, 'USDC');
    const payer = await newCounterparty(caller, { ...compliantIndividual, idCountryIsoCode2: 'KE' });
    const before = await balancesOf(wallet.publicKey);
    const { id, quote } = await heldOnramp(caller, { walletId: wallet.id, payer }, 650, 'HOLD-OWED');
    await recordWhen(caller, id, (r) => r.externalReference !== null);
    const emptied = await emptySettlement(ONRAMP_CONNECTOR_ID);
    try {
      const collected = await as(caller, `/sandbox/transactions/${id}/complete`, { method: 'POST' });
      assert.equal(collected.status, 202, JSON.stringify(collected.body));
      const owed = await storedWhen(id, (r) => (r.owedAttempt ?? 1) >= 2);
      assert.equal(owed.state, 'collected');
      assert.equal(owed.status, 'processing');
      assert.match(owed.owedRefusal ?? '', /underfunded/i);
      // What operations see (`npm run admin -- owed list`), and a re-drive of it asked for by hand.
      const listed = (await listOwed('sandbox')).find((o) => o.transactionRecordId === id);
      assert.equal(listed?.amount, String(quote.receiveAmount));
      assert.equal(listed?.state, 'collected');
      assert.ok((listed?.attempt ?? 0) >= 2);
      assert.equal((await redriveOwed('sandbox', id)).transactionRecordId, id);
      await assert.rejects(redriveOwed('sandbox', randomUUID()), /Nothing is owed/);
    } finally {
      await fundSettlement(ONRAMP_CONNECTOR_ID, emptied);
    }
    const record = await recordWhen(caller, id, (r) => r.status === 'completed', 90_000);
    const payments = (await operationsOf(record.stellarTxHash)).filter((op) => op.type === 'payment');
    assert.deepEqual(
      payments.map((p) => [p.to, (p as { amount?: string }).amount]),
      [[wallet.publicKey, new BigNumber(quote.receiveAmount).toFixed(7)]],
    );
    assert.equal(
      (await balancesOf(wallet.publicKey)).USDC,
      new BigNumber(before.USDC ?? 0).plus(quote.receiveAmount).toFixed(7),
    );
  });

  it('an off-ramp refund the ledger refuses is owed, retried, and paid back once, to the stroop', async () => {
    const wallet = await ownWallet(caller, 'USDC', 40);
    const before = await balancesOf(wallet.publicKey);
    const { id } = await heldOfframp(caller, wallet.id, 'HOLD-OWED-REFUND');
    const emptied = await emptySettlement(RAMP_CONNECTOR_ID);
    try {
      const failed = await as(caller, `/sandbox/transactions/${id}/fail`, { method: 'POST' });
      assert.equal(failed.status, 202, JSON.stringify(failed.body));
      const owed = await storedWhen(id, (r) => (r.owedAttempt ?? 1) >= 2);
      assert.equal(owed.state, 'refund_due');
      assert.equal(owed.status, 'failed');
    } finally {
      await fundSettlement(RAMP_CONNECTOR_ID, emptied);
    }
    const record = await recordWhen(caller, id, (r) => r.status === 'refund_completed', 90_000);
    assert.equal(record.errorCode, 'PROVIDER_FAILED');
    assert.equal((await balancesOf(wallet.publicKey)).USDC, before.USDC);
  });
});
