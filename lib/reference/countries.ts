// ISO 3166-1 lookups over the code list generated from i18n-iso-countries (iso-3166-1.ts), read the way
// that library reads codes: upper-cased first, so any case names the same country.
import { alpha2ByNumeric, alpha3ByAlpha2 } from './iso-3166-1.ts';

const alpha3Codes = new Set(Object.values(alpha3ByAlpha2));

/**
 * The alpha-3 code of a country given as alpha-2 or alpha-3 in any case, or undefined (wallets keep their
 * countries as alpha-3; their schema admits letters only, so numeric codes are not read here).
 */
export function alpha3Of(code: string): string | undefined {
  const upper = code.toUpperCase();
  if (Object.hasOwn(alpha3ByAlpha2, upper)) return alpha3ByAlpha2[upper];
  return alpha3Codes.has(upper) ? upper : undefined;
}

/** True for any ISO 3166-1 code, alpha-2, alpha-3 or numeric, in any case (i18n-iso-countries' `isValid`). */
export function isCountryCode(code: string): boolean {
  const upper = code.toUpperCase();
  return alpha3Of(upper) !== undefined || Object.hasOwn(alpha2ByNumeric, upper);
}
