// The limits a ramp is checked against (docs/decisions/ramp-limits.md): the connector's own (TRANSACTION, DAILY,
// WEEKLY, MONTHLY; AMOUNT in its accepted asset, or COUNT) and, for an off-ramp, this service's caps by
// the destination's verification state and the beneficiary's classification and tier, whichever is
// lower. Rolling windows sum this association's uses of the connector (usage.ts: each accepted
// ramp's, given back when it fails having moved nothing or is refunded) within the window. Amounts are
// in the connector's accepted asset (USDC for every seed off-ramp, the collected fiat for an on-ramp),
// compared with `sendAmount` (an off-ramp's fee excluded).
import BigNumber from 'bignumber.js';
import type { ConnectorLimit } from '../../connectors/catalogue-schema.ts';
import { LIMIT_DURATIONS } from '../../connectors/schema.ts';
import type { FieldError } from '../../http/problem.ts';

export type Standing = 'Me' | 'TIER_1' | 'TIER_0';
export type DestinationState = 'NOT_REQUIRED' | 'PENDING' | 'APPROVED' | 'REJECTED';

/**
 * This service's caps per transaction and per rolling day, by destination state and beneficiary
 * standing (documented with POST /payments/offramp, openapi/payment-docs.ts). null: no cap beyond the connector's.
 */
export const RAMP_CAPS: Record<
  DestinationState,
  Record<Standing, { transaction: number; daily: number } | null>
> = {
  APPROVED: {
    Me: null,
    TIER_1: { transaction: 5000, daily: 10000 },
    TIER_0: { transaction: 1000, daily: 2000 },
  },
  NOT_REQUIRED: {
    Me: null,
    TIER_1: { transaction: 5000, daily: 10000 },
    TIER_0: { transaction: 1000, daily: 2000 },
  },
  PENDING: {
    Me: { transaction: 1000, daily: 2000 },
    TIER_1: { transaction: 1000, daily: 2000 },
    TIER_0: { transaction: 500, daily: 1000 },
  },
  REJECTED: {
    Me: { transaction: 100, daily: 100 },
    TIER_1: { transaction: 100, daily: 100 },
    TIER_0: { transaction: 100, daily: 100 },
  },
};

/** What the association moved through the connector within a window: amount and count. */
export interface WindowUse {
  amount: BigNumber;
  count: number;
}

/** A limit as the check applies it: where it comes from is named in its error. */
export type RampLimit = ConnectorLimit & { source: string };

/** The connector's own limits as the check applies them (an on-ramp's, all of them). */
export const connectorLimits = (limits: ConnectorLimit[]): RampLimit[] =>
  limits.map((l) => ({ ...l, source: 'connector' }));

/** An off-ramp's limits as the check applies them: the connector's, with the caps as TRANSACTION and DAILY rows. */
export function limitsFor(
  limits: ConnectorLimit[],
  currency: string,
  state: DestinationState,
  standing: Standing,
): RampLimit[] {
  const caps = RAMP_CAPS[state][standing];
  const own = connectorLimits(limits);
  if (!caps) return own;
  const cap = (scope: 'TRANSACTION' | 'DAILY', maxValue: number) => ({
    scope,
    type: 'AMOUNT' as const,
    duration: LIMIT_DURATIONS[scope],
    minValue: 0,
    maxValue,
    currency,
    source: `destination ${state}, beneficiary ${standing}`,
  });
  return [...own, cap('TRANSACTION', caps.transaction), cap('DAILY', caps.daily)];
}

/** Each limit the payment would break, as an error on `amount` naming the limit. */
export function limitErrors(
  limits: RampLimit[],
  amount: BigNumber,
  currency: string,
  used: (durationSeconds: number) => WindowUse,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const limit of limits) {
    const window =
      limit.scope === 'TRANSACTION' ? { amount: new BigNumber(0), count: 0 } : used(limit.duration);
    const name = `${limit.scope} ${limit.type} limit (${limit.source})`;
    if (limit.type === 'COUNT') {
      if (window.count + 1 > limit.maxValue)
        errors.push({ field: 'amount', message: `exceeds the ${name} of ${limit.maxValue} payments` });
      continue;
    }
    if (limit.currency !== currency) continue;
    const total = window.amount.plus(amount);
    if (limit.scope === 'TRANSACTION' && amount.lt(limit.minValue))
      errors.push({
        field: 'amount',
        message: `is below the ${name} minimum of ${limit.minValue} ${currency}`,
      });
    if (total.gt(limit.maxValue))
      errors.push({
        field: 'amount',
        message:
          limit.scope === 'TRANSACTION'
            ? `exceeds the ${name} of ${limit.maxValue} ${currency}`
            : `would bring ${window.amount.toFixed()} ${currency} already sent to ${total.toFixed()}, over the ${name} of ${limit.maxValue} ${currency}`,
      });
  }
  return errors;
}
