// What one sandbox tenant may take of the platform's test money. The sandbox's funding account (XLM) and
// its assets' issuers and settlement accounts are shared by every sandbox tenant: one call of 99,999,990
// XLM emptied the funding account, and every other tenant's wallet activations failed. So each helper
// call is capped, and so is each association's total a UTC day, per helper (its own units: the asset's
// for funding, the receipt's currency for receipts). Past either, a 422 names `amount`, the amount and
// the cap, and nothing is paid. The day's total is one atomic ADD in the tenant's own partition; a
// funding retried with its Idempotency-Key is counted once (a marker item per key, written in the same
// transaction). A request refused later (the ledger refuses, nothing was sent) still counts: the caps are
// far above what a test needs, and counting first is what makes them hold under concurrent calls.
import BigNumber from 'bignumber.js';
import { config } from '../config.ts';
import { absent, absentOrBelow } from '../db/conditions.ts';
import { entity } from '../db/entity.ts';
import { transact, updateIf } from '../db/items.ts';
import { sandboxMoneyKeys } from '../db/keys.ts';
import { unprocessable } from '../http/problem.ts';
import type { Tenant } from '../tenant.ts';

export type SandboxMoneyHelper = 'fund' | 'receipt';

const DAY_SECONDS = 86_400;
/** Totals are kept in 10⁻⁷ units (the ledger's precision): whole numbers, added exactly. */
const SCALE = 1e7;

export function sandboxMoneyLimits(helper: SandboxMoneyHelper): { perCall: number; perDay: number } {
  const settings = config();
  return helper === 'fund'
    ? { perCall: settings.SANDBOX_FUND_MAX_PER_CALL, perDay: settings.SANDBOX_FUND_DAILY_LIMIT }
    : { perCall: settings.SANDBOX_RECEIPT_MAX_PER_CALL, perDay: settings.SANDBOX_RECEIPT_DAILY_LIMIT };
}

interface MoneyUse {
  pk: string;
  sk: string;
  expiresAt: number;
}
const useEntity = entity<MoneyUse>({ type: 'sandboxMoneyUse', keyOf: ({ pk, sk }) => ({ pk, sk }) });

/**
 * Counts `amount` (of `unit`) against the helper's caps, or throws the 422 that says which cap it passes.
 * `idempotencyKey`: a request counted under it before is not counted again.
 */
export async function countSandboxMoney(
  tenant: Tenant,
  helper: SandboxMoneyHelper,
  amount: BigNumber.Value,
  unit: string,
  idempotencyKey: string | undefined,
  now: Date,
): Promise<void> {
  const { perCall, perDay } = sandboxMoneyLimits(helper);
  const asked = new BigNumber(amount);
  if (asked.gt(perCall))
    throw unprocessable(
      `${asked.toFixed()} ${unit} is more than one sandbox call may ask: at most ${perCall}.`,
      [{ field: 'amount', message: `${asked.toFixed()} is above the cap of ${perCall} a call` }],
    );
  const scaled = asked.times(SCALE).integerValue(BigNumber.ROUND_CEIL).toNumber();
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % DAY_SECONDS);
  const expiresAt = windowStart + DAY_SECONDS * 2;
  // The total after this one stays at most perDay: the total before it is below perDay − amount + 1 unit.
  const room = absentOrBelow('total', perDay * SCALE - scaled + 1);
  const day = sandboxMoneyKeys.day(tenant, helper, windowStart);
  const add = { add: { total: scaled }, setIfAbsent: { expiresAt } };
  let counted: boolean;
  let alreadyCounted = false;
  if (idempotencyKey === undefined) {
    counted = (await updateIf(day, add, room)).outcome === 'written';
  } else {
    const use = sandboxMoneyKeys.use(tenant, helper, idempotencyKey);
    const written = await transact([
      { put: { entity: useEntity as never, record: { ...use, expiresAt }, condition: absent } },
      { update: { key: day, changes: add, condition: room } },
    ]);
    counted = written.outcome === 'written';
    alreadyCounted = written.outcome === 'cancelled' && written.reasons[0]?.code === 'ConditionalCheckFailed';
  }
  if (counted || alreadyCounted) return;
  throw unprocessable(
    `${asked.toFixed()} ${unit} would take this association past its sandbox cap of ${perDay} a day (UTC); nothing was paid.`,
    [{ field: 'amount', message: `${asked.toFixed()} is above what is left of the daily cap of ${perDay}` }],
  );
}
