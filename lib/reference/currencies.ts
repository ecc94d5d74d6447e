// ISO 4217 lookups over the table generated from currency-codes (iso-4217.ts).
import { minorUnitsByCurrency } from './iso-4217.ts';

/** True for an ISO 4217 code exactly as written (upper case). */
export const isCurrencyCode = (code: string): boolean => Object.hasOwn(minorUnitsByCurrency, code);

/** The minor-unit digits of an ISO 4217 code in any case (as currency-codes' `code()` reads it), or undefined. */
export function minorUnitsOf(code: string): number | undefined {
  const upper = code.toUpperCase();
  return isCurrencyCode(upper) ? minorUnitsByCurrency[upper] : undefined;
}
