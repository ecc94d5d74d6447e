// Our phone-number functions (libphonenumber-js/core with the generated metadata, formats removed) answer
// exactly as libphonenumber-js's default entry point (its whole `min` metadata) did, for every country's
// example mobile number and numbers near it: what the beneficiaries read never needed the formats.
import assert from 'node:assert/strict';
import * as full from 'libphonenumber-js';
import type { CountryCode } from 'libphonenumber-js/core';
import min from 'libphonenumber-js/min/metadata';
import examples from 'libphonenumber-js/mobile/examples';
import { describe, it } from 'vitest';
import { phoneMetadata } from '../../lib/reference/phone-metadata.ts';
import { isValidPhoneNumber, parsePhoneNumber } from '../../lib/reference/phone-numbers.ts';

/** Non-geographic calling codes (no country, so no example in the file): a number each, from Google's metadata. */
const nonGeographic: [string, string][] = [
  ['800', '12345678'],
  ['808', '12345678'],
  ['870', '301234567'],
  ['878', '101234567890'],
  ['881', '612345678'],
  ['882', '3421234'],
  ['883', '510012345'],
  ['888', '12345678901'],
  ['979', '123456789'],
];

const examplesByCallingCode: [string, string][] = [
  ...Object.entries(examples).map(([country, national]): [string, string] => [
    full.getCountryCallingCode(country as CountryCode),
    national,
  ]),
  ...nonGeographic,
];
const callingCodes = [...new Set(examplesByCallingCode.map(([code]) => code))];

/** The example as our API takes it (+ and digits) and numbers near it, most of them invalid. */
function variants([code, national]: [string, string], i: number): string[] {
  const digits = [...'0123456789'];
  // The same national number under other calling codes: a number "of the wrong country".
  const others = [1, 2, 3, 50].map((step) => callingCodes[(i + step) % callingCodes.length]);
  return [
    `+${code}${national}`,
    `+${code} ${national.slice(0, 3)} ${national.slice(3)}`,
    ...['0', '5', '9'].map((d) => `+${code}${national}${d}`),
    `+${code}${national.slice(0, -1)}`,
    `+${code}${national.slice(1)}`,
    ...digits.map((d) => `+${code}${d}${national.slice(1)}`),
    ...digits.map((d) => `+${code}${national[0]}${d}${national.slice(2)}`),
    ...others.map((other) => `+${other}${national}`),
    // National forms, without a + (the request schema refuses them, the library is asked anyway).
    national,
    `0${national}`,
    `${code}${national}`,
  ];
}

const candidates = [...new Set(examplesByCallingCode.flatMap(variants))];

describe('phone numbers with the generated metadata', () => {
  it('has every numbering plan without its formats, and nothing else changed', () => {
    assert.equal(phoneMetadata.version, min.version);
    assert.deepEqual(phoneMetadata.country_calling_codes, min.country_calling_codes);
    for (const plans of ['countries', 'nonGeographic'] as const) {
      const ours = phoneMetadata[plans] as Record<string, unknown[]>;
      const theirs = min[plans] as Record<string, unknown[]>;
      assert.deepEqual(Object.keys(ours), Object.keys(theirs));
      for (const [key, plan] of Object.entries(theirs)) {
        // Index 4 holds the formats (absent from the shortest plans, e.g. AC's).
        assert.deepEqual(
          ours[key],
          plan.map((value, i) => (i === 4 ? 0 : value)),
          key,
        );
      }
    }
  });

  it('gives what the full `min` metadata gives for examples of every country and numbers near them', () => {
    let valid = 0;
    for (const text of candidates) {
      const [ours, theirs] = [parsePhoneNumber(text), full.parsePhoneNumberFromString(text)];
      const answers = (phone: typeof ours, isValid: boolean) => ({
        isValid,
        number: phone?.number,
        country: phone?.country,
        possibleCountries: phone?.getPossibleCountries(),
        type: phone?.getType(),
        isPossible: phone?.isPossible(),
      });
      const expected = answers(theirs, full.isValidPhoneNumber(text));
      assert.deepEqual(answers(ours, isValidPhoneNumber(text)), expected, text);
      if (expected.isValid) valid++;
    }
    // Not a comparison of refusals only: every example and a good share of the neighbours are valid.
    assert.ok(valid >= examplesByCallingCode.length, `${valid} valid of ${candidates.length}`);
  });
});
