// The sandbox's shared accounts, kept topped up (the schedules/sandbox-reserves function, every few
// minutes; the local stack runs it too). Every sandbox tenant's wallet activations and funding draw on
// the funding account's lumens, and every on-ramp receipt on a settlement account's test money: one
// tenant (within its caps, lib/wallets/sandbox-limits.ts) or many together can still run them low, and
// then everyone's activations wait. So:
//  - the funding account, below SANDBOX_FUNDING_FLOOR_XLM, gets lumens from the test network's friendbot.
//    Friendbot only opens new accounts (10,000 XLM each), so a throwaway account is opened and pays all
//    but its reserve to the funding account; a run that dies in between leaves test lumens in a throwaway
//    account, nothing worse;
//  - a settlement account holding a platform-issued test asset below SANDBOX_SETTLEMENT_FLOOR is paid up
//    to SANDBOX_SETTLEMENT_TARGET by the asset's issuer (the platform issues the sandbox's test money),
//    one ledger intent per account, asset and hour, so two runs in the same hour pay once.
// Each account's balance after the run is published (SandboxReserve, by account kind and asset): the
// stage alarms when the funding account's stays below its floor (infra/constructs/observability.ts).
import { Asset, Keypair, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import BigNumber from 'bignumber.js';
import { config } from '../config.ts';
import { readAllPages } from '../db/items.ts';
import { ledgerKeys } from '../db/keys.ts';
import { logger } from '../log.ts';
import { countSandboxReserve } from '../metrics.ts';
import { submitEnvelope } from './horizon-submit.ts';
import { findLedgerAccount, platformLedgerAccount } from './load-account.ts';
import { ledgerNetwork } from './network.ts';
import { pay } from './operations.ts';
import { findPlatformAccount, type PlatformAccount } from './platform-accounts.ts';

/** What friendbot gives a new account, and what the throwaway keeps (its base reserve and a fee). */
const FRIENDBOT_XLM = '10000';
const THROWAWAY_KEEPS_XLM = '2';
const PAYMENT_BUDGET_MS = 4_000;

export interface ReserveLevels {
  fundingFloorXlm: string;
  settlementFloor: string;
  settlementTarget: string;
  /** Only these settlement accounts (by role); all of them when absent. */
  settlementRoles?: readonly string[];
}

export const reserveLevels = (): ReserveLevels => ({
  fundingFloorXlm: String(config().SANDBOX_FUNDING_FLOOR_XLM),
  settlementFloor: String(config().SANDBOX_SETTLEMENT_FLOOR),
  settlementTarget: String(config().SANDBOX_SETTLEMENT_TARGET),
});

export interface ReserveReport {
  role: string;
  asset: string;
  /** The balance the run found, and the one it left (the same when nothing was needed). */
  before: string;
  after: string;
  toppedUp: boolean;
}

const balanceOf = (
  account: Awaited<ReturnType<typeof findLedgerAccount>>,
  asset: { code: string; issuer: string } | 'native',
): string =>
  account?.balances.find((b) =>
    asset === 'native'
      ? b.asset_type === 'native'
      : 'asset_code' in b && b.asset_code === asset.code && b.asset_issuer === asset.issuer,
  )?.balance ?? '0';

/** Lumens from friendbot into `target`, through a throwaway account friendbot opens. */
async function friendbotInto(target: string): Promise<void> {
  const network = ledgerNetwork('sandbox');
  const throwaway = Keypair.random();
  const url = new URL(config().FRIENDBOT_URL_SANDBOX);
  url.searchParams.set('addr', throwaway.publicKey());
  const opened = await fetch(url, { signal: AbortSignal.timeout(config().LEDGER_TIMEOUT_MS) });
  if (!opened.ok)
    throw new Error(`Friendbot answered ${opened.status}: ${(await opened.text()).slice(0, 200)}`);
  const source = await platformLedgerAccount('sandbox', throwaway.publicKey(), 'friendbot throwaway');
  const transaction = new TransactionBuilder(source, {
    fee: '1000',
    networkPassphrase: network.networkPassphrase,
  })
    .addOperation(
      Operation.payment({
        destination: target,
        asset: Asset.native(),
        amount: new BigNumber(FRIENDBOT_XLM).minus(THROWAWAY_KEEPS_XLM).toFixed(7),
      }),
    )
    .setTimeout(60)
    .build();
  transaction.sign(throwaway);
  await submitEnvelope('sandbox', transaction.toEnvelope().toXDR('base64'));
}

async function topUpFunding(levels: ReserveLevels): Promise<ReserveReport[]> {
  // A stage whose sandbox ledger accounts are not made yet (`admin channels open`): nothing to keep up.
  const funding = await findPlatformAccount('sandbox', 'funding');
  if (!funding) return [];
  const before = balanceOf(await findLedgerAccount('sandbox', funding.publicKey), 'native');
  let after = before;
  if (new BigNumber(before).lt(levels.fundingFloorXlm)) {
    await friendbotInto(funding.publicKey);
    after = balanceOf(await findLedgerAccount('sandbox', funding.publicKey), 'native');
  }
  return [{ role: 'funding', asset: 'XLM', before, after, toppedUp: after !== before }];
}

const settlementAccounts = () =>
  readAllPages<PlatformAccount>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
    ExpressionAttributeValues: {
      ':pk': ledgerKeys.platformAccount('sandbox', '').pk,
      ':sk': ledgerKeys.platformAccount('sandbox', 'settlement:').sk,
    },
  });

async function topUpSettlement(
  settlement: PlatformAccount,
  levels: ReserveLevels,
  now: Date,
): Promise<ReserveReport[]> {
  const account = await findLedgerAccount('sandbox', settlement.publicKey);
  const reports: ReserveReport[] = [];
  for (const held of account?.balances ?? []) {
    if (!('asset_code' in held)) continue;
    const asset = { code: held.asset_code, issuer: held.asset_issuer };
    // Only the platform's own test money: an asset someone else issues is not ours to mint.
    const issuer = await findPlatformAccount('sandbox', `issuer:${asset.code}`);
    if (issuer?.publicKey !== asset.issuer) continue;
    const before = held.balance;
    let after = before;
    if (new BigNumber(before).lt(levels.settlementFloor)) {
      const hour = now.toISOString().slice(0, 13);
      const outcome = await pay({
        environment: 'sandbox',
        intentId: `sandbox-reserve:${settlement.role}:${asset.code}:${hour}`,
        from: issuer,
        to: settlement.publicKey,
        asset,
        amount: new BigNumber(levels.settlementTarget).minus(before).toFixed(7),
        budgetMs: PAYMENT_BUDGET_MS,
      });
      if (outcome.status === 'succeeded')
        after = balanceOf(await findLedgerAccount('sandbox', settlement.publicKey), asset);
      else logger.warn('Sandbox settlement top-up not settled', { role: settlement.role, ...outcome });
    }
    reports.push({ role: settlement.role, asset: asset.code, before, after, toppedUp: after !== before });
  }
  return reports;
}

/** Tops the sandbox's funding and settlement accounts up where they run low; what it found and left. */
export async function topUpSandboxReserves(now: Date, levels = reserveLevels()): Promise<ReserveReport[]> {
  const reports = await topUpFunding(levels);
  const settlements = (await settlementAccounts()).filter(
    (account) => !levels.settlementRoles || levels.settlementRoles.includes(account.role),
  );
  for (const settlement of settlements) reports.push(...(await topUpSettlement(settlement, levels, now)));
  for (const report of reports) {
    countSandboxReserve(
      report.role === 'funding' ? 'funding' : 'settlement',
      report.asset,
      report.after,
      report.role,
    );
    if (report.toppedUp) logger.info('Sandbox reserve topped up', { ...report });
  }
  return reports;
}
