// The reference data the functions carry (lib/reference/) against the libraries it is generated from: the
// checked-in files are what the generator derives from the installed versions, so an upgrade cannot
// drift silently, and our lookups answer as the libraries did for every code and some that are not.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as currencyCodes from 'currency-codes';
import countries from 'i18n-iso-countries/index.js';
import { describe, it } from 'vitest';
import { alpha3Of, isCountryCode } from '../../lib/reference/countries.ts';
import { isCurrencyCode, minorUnitsOf } from '../../lib/reference/currencies.ts';
import { phoneMetadata as readableMetadata } from '../../lib/reference/phone-metadata.ts';
import { phoneMetadata } from '../../lib/reference/phone-numbers.ts';
import {
  phoneMetadataWithoutFormats,
  referenceDir,
  referenceFiles,
} from '../../scripts/generate-reference-data.ts';

/** Strings that are no code but reach lookups: empty, unknown, too long, prototype members, non-ASCII. */
const junk = [
  '',
  'X',
  'XX',
  'ZZZ',
  '999',
  '0',
  '4',
  '04',
  'ABCD',
  'constructor',
  '__proto__',
  'toString',
  'ß',
  'ﬀ',
];

describe('generated reference data', () => {
  it('is what scripts/generate-reference-data.ts derives from the installed libraries', () => {
    for (const [name, text] of Object.entries(referenceFiles())) {
      if (name === 'phone-metadata-packed.ts') continue;
      assert.ok(
        readFileSync(join(referenceDir, name), 'utf8') === text,
        `lib/reference/${name} differs from what the installed library gives: run \`npm run reference-data\` ` +
          '(node scripts/toolchain.mjs node scripts/generate-reference-data.ts) and review the diff',
      );
    }
  });

  it('packs for the bundles exactly the phone metadata that phone-metadata.ts holds', () => {
    assert.deepEqual(phoneMetadata(), phoneMetadataWithoutFormats());
    assert.deepEqual(phoneMetadata(), readableMetadata);
  });
});

describe('ISO 3166-1 lookups', () => {
  const codes = Object.entries(countries.getAlpha2Codes()).flatMap(([alpha2, alpha3]) => [
    alpha2,
    alpha3,
    countries.alpha2ToNumeric(alpha2) ?? '',
  ]);
  const spellings = [...codes, ...codes.map((c) => c.toLowerCase()), 'Za', 'zAf', ...junk];

  it('isCountryCode answers as i18n-iso-countries’ isValid', () => {
    for (const code of spellings) assert.equal(isCountryCode(code), countries.isValid(code), code);
  });

  it('alpha3Of gives what the wallets took from i18n-iso-countries for letters', () => {
    for (const code of spellings.filter((c) => /^[A-Za-z]{2,3}$/.test(c))) {
      const upper = code.toUpperCase();
      assert.equal(alpha3Of(code), countries.isValid(upper) ? countries.toAlpha3(upper) : undefined, code);
    }
  });
});

describe('ISO 4217 lookups', () => {
  const codes = currencyCodes.codes();
  const spellings = [...codes, ...codes.map((c) => c.toLowerCase()), 'Usd', ...junk];

  it('minorUnitsOf answers as currency-codes’ code(): any case, 0 where ISO lists none', () => {
    for (const code of spellings) assert.equal(minorUnitsOf(code), currencyCodes.code(code)?.digits, code);
    assert.deepEqual(['JPY', 'XAU', 'XXX', 'KES', 'BHD'].map(minorUnitsOf), [0, 0, 0, 2, 3]);
  });

  it('isCurrencyCode takes upper case only, as the payment destinations did', () => {
    for (const code of spellings)
      assert.equal(isCurrencyCode(code), currencyCodes.code(code)?.code === code, code);
  });
});
