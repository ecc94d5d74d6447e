// ISO 3166-1 codes from a maintained table (i18n-iso-countries' code list, without its locale names).
import countries from 'i18n-iso-countries/index.js';

/** The alpha-3 code of a real country given as alpha-2 or alpha-3 in any case, or undefined. */
export function toAlpha3(code: string): string | undefined {
  const upper = code.toUpperCase();
  return countries.isValid(upper) ? countries.toAlpha3(upper) : undefined;
}
