// The sandbox reserves' top-up (issue 36): the funding account, below its floor, gets lumens from the
// ledger's friendbot (through a throwaway account, friendbot opening only new ones); a settlement account
// below its floor is paid up to its target by the issuer of its test asset, once an hour however often
// the run repeats; each balance is published as SandboxReserve. Run against the test stack's ledger with
// floors just above what the accounts hold, so every top-up is small.
import assert from 'node:assert/strict';
import BigNumber from 'bignumber.js';
import { describe, it } from 'vitest';
import { findLedgerAccount } from '../../lib/ledger/load-account.ts';
import { platformAccount } from '../../lib/ledger/platform-accounts.ts';
import { topUpSandboxReserves } from '../../lib/ledger/sandbox-reserves.ts';
import { metricNames } from '../../lib/metrics.ts';
import { captureMetrics } from '../support/metrics.ts';

const xlmOf = async (publicKey: string) =>
  (await findLedgerAccount('sandbox', publicKey))?.balances.find((b) => b.asset_type === 'native')?.balance ??
  '0';

describe('sandbox reserves', () => {
  it('tops the funding account up from friendbot and a settlement account from its issuer, and publishes their balances', async () => {
    const funding = await platformAccount('sandbox', 'funding');
    const settlement = await platformAccount('sandbox', 'settlement:za-bank-onramp-zar-usdc');
    const held = (await findLedgerAccount('sandbox', settlement.publicKey))?.balances.find(
      (b) => 'asset_code' in b && b.asset_code === 'USDC',
    )?.balance;
    assert.ok(held, 'the settlement account holds USDC');
    const before = await xlmOf(funding.publicKey);
    const metrics = captureMetrics();
    const now = new Date();
    const levels = {
      fundingFloorXlm: new BigNumber(before).plus(1).toFixed(),
      settlementFloor: new BigNumber(held).plus(1000).toFixed(),
      settlementTarget: new BigNumber(held).plus(1000).toFixed(),
      // One account alone: other tests read the others' balances.
      settlementRoles: [settlement.role],
    };
    const reports = await topUpSandboxReserves(now, levels);
    metrics.restore();

    const fundingReport = reports.find((r) => r.role === 'funding');
    assert.equal(fundingReport?.toppedUp, true, JSON.stringify(reports));
    // Friendbot's 10,000 less what the throwaway keeps (its reserve and a fee), give or take what other
    // tests' fees took from the funding account meanwhile.
    const gained = new BigNumber(await xlmOf(funding.publicKey)).minus(before);
    assert.ok(gained.gt(9_990) && gained.lte(9_998), gained.toFixed());
    const settled = reports.find((r) => r.role === settlement.role && r.asset === 'USDC');
    assert.equal(settled?.toppedUp, true, JSON.stringify(reports));
    assert.ok(new BigNumber(settled?.after ?? 0).gte(levels.settlementTarget), JSON.stringify(settled));

    // The same hour again with the same levels: the settlement's intent is paid once.
    const again = await topUpSandboxReserves(now, { ...levels, fundingFloorXlm: '1' });
    const repeated = again.find((r) => r.role === settlement.role && r.asset === 'USDC');
    assert.equal(repeated?.toppedUp, false, JSON.stringify(repeated));

    const published = metrics.lines.filter((line) => metricNames.sandboxReserve in line);
    const fundingLine = published.find((line) => line.account === 'funding');
    assert.equal(fundingLine?.asset, 'XLM');
    assert.equal(Number(fundingLine?.[metricNames.sandboxReserve]), Number(fundingReport?.after));
    assert.ok(published.some((line) => line.account === 'settlement' && line.role === settlement.role));
  });
});
