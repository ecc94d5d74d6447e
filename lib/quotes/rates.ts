// Where quote prices come from: one interface, one source per environment, chosen by configuration
// (QUOTE_RATE_SOURCE_SANDBOX / QUOTE_RATE_SOURCE_PRODUCTION).
//
// A rate is the price of one unit of a ledger asset in a fiat currency (`USDC/KES 129.00`: 1 USDC buys
// 129.00 KES), the way corridors are quoted. Off-ramp: receiveAmount = amount × rate. On-ramp:
// receiveAmount = (amount − fee) ÷ rate. One rate serves both directions; the spread is in the fees.
import BigNumber from 'bignumber.js';
import { config } from '../config.ts';
import type { Environment } from '../tenant.ts';

export interface RateSource {
  /** What the quote records as its source (never shown to callers). */
  readonly name: string;
  /** Fiat units per one unit of `asset`, or undefined when the source has no price for the pair. */
  rate(asset: string, fiat: string): Promise<BigNumber | undefined>;
}

/**
 * The configured sandbox rates: fixed, so integrators (and tests) can predict every figure.
 * Decimal strings, never floats.
 */
export const SANDBOX_RATES: Readonly<Record<string, string>> = {
  'USDC/ZAR': '18.50',
  'USDC/KES': '129.00',
  'USDC/NGN': '1550.00',
  'USDC/GHS': '15.20',
  'USDC/XAF': '605.00',
  'USDC/UGX': '3700.00',
};

/**
 * A market-rate provider: what production prices with. The only implementation in this repository is
 * `standInProvider`, a configured table standing in for a live feed (a real provider client plugs in
 * here and is chosen by QUOTE_RATE_SOURCE_PRODUCTION).
 */
export type RateProvider = RateSource;

/** The stand-in provider's table (near market, distinct from sandbox so a mix-up shows). */
export const STAND_IN_PROVIDER_RATES: Readonly<Record<string, string>> = {
  'USDC/ZAR': '18.42',
  'USDC/KES': '129.25',
  'USDC/NGN': '1538.50',
  'USDC/GHS': '15.35',
  'USDC/XAF': '603.10',
  'USDC/UGX': '3685.00',
};

export function configuredRates(name: string, table: Readonly<Record<string, string>>): RateSource {
  return {
    name,
    rate: async (asset, fiat) => {
      const value = table[`${asset}/${fiat}`];
      return value === undefined ? undefined : new BigNumber(value);
    },
  };
}

export const sandboxRates: RateSource = configuredRates('sandbox-configured', SANDBOX_RATES);
export const standInProvider: RateProvider = configuredRates('provider-stand-in', STAND_IN_PROVIDER_RATES);

const sources = { configured: sandboxRates, provider: standInProvider } as const;
export type RateSourceName = keyof typeof sources;

/** The rate source of an environment, as configuration chooses it. */
export function rateSourceFor(environment: Environment): RateSource {
  const { QUOTE_RATE_SOURCE_SANDBOX, QUOTE_RATE_SOURCE_PRODUCTION } = config();
  return sources[environment === 'sandbox' ? QUOTE_RATE_SOURCE_SANDBOX : QUOTE_RATE_SOURCE_PRODUCTION];
}
