// Ledger amounts: decimal strings, at most 7 decimal places (one stroop), never floats.
import BigNumber from 'bignumber.js';
import { LedgerInputError } from './errors.ts';

/** The ledger's precision: amounts are whole numbers of stroops (10^-7). */
export const LEDGER_DECIMALS = 7;
/** The largest amount the ledger can hold: int64 stroops. */
export const MAX_AMOUNT = new BigNumber('922337203685.4775807');
/** What a ledger text memo holds, in bytes of UTF-8. */
export const MEMO_BYTES = 28;

/**
 * Validates a positive decimal string with at most 7 decimal places and returns it in the plain form
 * the SDK expects (`'10'`, `'0.5'`, no exponent). Throws LedgerInputError otherwise.
 */
export function ledgerAmount(amount: string): string {
  if (typeof amount !== 'string' || !/^\d+(\.\d+)?$/.test(amount.trim())) {
    throw new LedgerInputError(`Amount must be a decimal string, got ${JSON.stringify(amount)}`, 'amount');
  }
  const value = new BigNumber(amount.trim());
  if (!value.isFinite() || value.lte(0))
    throw new LedgerInputError('Amount must be greater than zero', 'amount');
  if ((value.decimalPlaces() ?? 0) > LEDGER_DECIMALS) {
    throw new LedgerInputError(`Amount has more than ${LEDGER_DECIMALS} decimal places`, 'amount');
  }
  if (value.gt(MAX_AMOUNT)) throw new LedgerInputError('Amount exceeds what the ledger can hold', 'amount');
  return value.toFixed();
}

/** A path's quoted amount less the slippage, rounded down to the stroop: what a conversion must deliver. */
export const leastReceived = (quoted: string, slippage: BigNumber | string): BigNumber =>
  new BigNumber(quoted)
    .times(new BigNumber(1).minus(slippage))
    .decimalPlaces(LEDGER_DECIMALS, BigNumber.ROUND_DOWN);
