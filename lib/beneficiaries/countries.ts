// Countries of payment destinations: ISO 3166-1 alpha-2 from the code list generated from
// i18n-iso-countries (lib/reference/), English names from the runtime's ICU (Intl.DisplayNames, no locale
// table bundled), continents from the table below (data, one row per continent).
import { alpha3ByAlpha2 } from '../reference/iso-3166-1.ts';

/** The upper-case alpha-2 code when `code` (two letters, any case) is a real ISO 3166-1 country. */
export function realAlpha2(code: string): string | undefined {
  const upper = code.toUpperCase();
  return /^[A-Z]{2}$/.test(upper) && Object.hasOwn(alpha3ByAlpha2, upper) ? upper : undefined;
}

// Made on first use: ICU loads its region names then (~10 ms), which a cold start of a route that shows
// no payment destination never needs.
let displayNames: Intl.DisplayNames | undefined;

export const countryName = (alpha2: string): string => {
  displayNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  return displayNames.of(alpha2) ?? alpha2;
};

/** Continents, as commonly used for ISO 3166-1 codes (Cyprus in Europe, Turkey in Asia). */
export const continents: Readonly<Record<string, string>> = {
  Africa:
    'DZ AO BJ BW BF BI CV CM CF TD KM CG CD CI DJ EG GQ ER SZ ET GA GM GH GN GW KE LS LR LY MG MW ML MR MU YT MA ' +
    'MZ NA NE NG RE RW SH ST SN SC SL SO ZA SS SD TZ TG TN UG EH ZM ZW',
  Antarctica: 'AQ BV GS HM TF',
  Asia:
    'AF AM AZ BH BD BT BN KH CN GE IN ID IR IQ IL JP JO KZ KW KG LA LB MY MV MN MM NP KP OM PK PS PH QA SA SG KR ' +
    'LK SY TW TJ TH TL TR TM AE UZ VN YE HK MO IO CC CX',
  Europe:
    'AL AD AT BY BE BA BG HR CY CZ DK EE FO FI FR DE GI GR GG HU IS IE IM IT JE LV LI LT LU MT MD MC ME NL MK NO ' +
    'PL PT RO RU SM RS SK SI ES SJ SE CH UA GB VA AX XK',
  'North America':
    'AI AG AW BS BB BZ BM BQ VG CA KY CR CU CW DM DO SV GL GD GP GT HT HN JM MQ MX MS NI PA PR BL KN LC MF PM VC ' +
    'SX TT TC US VI UM',
  'South America': 'AR BO BR CL CO EC FK GF GY PY PE SR UY VE',
  Oceania: 'AS AU CK FJ PF GU KI MH FM NR NC NZ NU NF MP PW PG PN WS SB TK TO TV VU WF',
};

const continentOf = new Map<string, string>(
  Object.entries(continents).flatMap(([continent, codes]) => codes.split(' ').map((c) => [c, continent])),
);

/** The continent of an alpha-2 country code. */
export const regionOf = (alpha2: string): string => continentOf.get(alpha2) ?? 'Unknown';

/** Every alpha-2 code of the ISO list (for the table's completeness test). */
export const allAlpha2 = (): string[] => Object.keys(alpha3ByAlpha2);
