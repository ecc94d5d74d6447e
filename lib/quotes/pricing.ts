// Quote arithmetic: pure, exact (bignumber.js, never floats). Every figure is rounded once, to the
// minor units of its own currency:
// - the fee: computed exactly (amount × percentage ÷ 100 + fixed), then rounded HALF-UP;
// - the received amount: rounded DOWN (a quote never promises a fraction the payout cannot cover);
// - sendAmount is the amount as given (it has at most the currency's decimals, checked before);
// - total is the sum (off-ramp) or sendAmount (on-ramp) of figures already rounded, so it is exact.
import BigNumber from 'bignumber.js';

/** Division that truncates: with ROUND_DOWN at 40 places, a later ROUND_DOWN to minor units is a true floor. */
const Exact = BigNumber.clone({ DECIMAL_PLACES: 40, ROUNDING_MODE: BigNumber.ROUND_DOWN });

export interface FeeSchedule {
  /** Percent of the amount, as a decimal string (`"0.5"` is 0.5 %). */
  percentage: string;
  /** Fixed part in the fee currency, as a decimal string. */
  fixed: string;
}

export interface Priced {
  sendAmount: BigNumber;
  fee: BigNumber;
  total: BigNumber;
  receiveAmount: BigNumber;
}

export function feeOf(amount: BigNumber, schedule: FeeSchedule, decimals: number): BigNumber {
  return amount
    .times(schedule.percentage)
    .div(100)
    .plus(schedule.fixed)
    .decimalPlaces(decimals, BigNumber.ROUND_HALF_UP);
}

/** What both directions are priced from: the amount sent in, the rate, the fee schedule and minor units. */
export interface PricingInput {
  amount: BigNumber;
  rate: BigNumber;
  fee: FeeSchedule;
  sendDecimals: number;
  receiveDecimals: number;
}

/**
 * Off-ramp: `amount` (in the asset the connector accepts) is what is converted and paid out; the fee
 * comes on top. rate = fiat per asset unit.
 */
export function priceOffRamp(input: PricingInput): Priced {
  const fee = feeOf(input.amount, input.fee, input.sendDecimals);
  return {
    sendAmount: input.amount,
    fee,
    total: input.amount.plus(fee),
    receiveAmount: input.amount.times(input.rate).decimalPlaces(input.receiveDecimals, BigNumber.ROUND_DOWN),
  };
}

/**
 * On-ramp: `amount` (in the fiat the connector accepts) is what the counterparty pays; the fee is taken
 * out of it and the rest converted into the wallet asset. rate = fiat per asset unit.
 */
export function priceOnRamp(input: PricingInput): Priced {
  const fee = feeOf(input.amount, input.fee, input.sendDecimals);
  const net = input.amount.minus(fee);
  return {
    sendAmount: input.amount,
    fee,
    total: input.amount,
    receiveAmount: new Exact(net).div(input.rate).decimalPlaces(input.receiveDecimals, BigNumber.ROUND_DOWN),
  };
}
