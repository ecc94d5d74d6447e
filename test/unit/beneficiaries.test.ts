// Pure rules of beneficiaries and payment destinations: merge patch, classification, masking, the
// bank-rule and continent tables.
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { bankRuleFor, bankRules } from '../../lib/beneficiaries/bank-rules.ts';
import { allAlpha2, continents, realAlpha2, regionOf } from '../../lib/beneficiaries/countries.ts';
import { mask } from '../../lib/beneficiaries/destination-resource.ts';
import { classify, mergePatch } from '../../lib/beneficiaries/service.ts';

describe('mergePatch (RFC 7396)', () => {
  it('follows the RFC’s examples', () => {
    // RFC 7396 appendix A, a selection.
    assert.deepEqual(mergePatch({ a: 'b' }, { a: 'c' }), { a: 'c' });
    assert.deepEqual(mergePatch({ a: 'b' }, { b: 'c' }), { a: 'b', b: 'c' });
    assert.deepEqual(mergePatch({ a: 'b' }, { a: null }), {});
    assert.deepEqual(mergePatch({ a: 'b', b: 'c' }, { a: null }), { b: 'c' });
    assert.deepEqual(mergePatch({ a: ['b'] }, { a: 'c' }), { a: 'c' });
    assert.deepEqual(mergePatch({ a: 'c' }, { a: ['b'] }), { a: ['b'] });
    assert.deepEqual(mergePatch({ a: { b: 'c' } }, { a: { b: 'd', c: null } }), { a: { b: 'd' } });
    assert.deepEqual(mergePatch({ a: [{ b: 'c' }] }, { a: [1] }), { a: [1] });
    assert.deepEqual(mergePatch({ e: null }, { a: 1 }), { e: null, a: 1 });
    assert.deepEqual(mergePatch({}, { a: { bb: { ccc: null } } }), { a: { bb: {} } });
  });

  it('does not change its input', () => {
    const target = { a: { b: 1 } };
    mergePatch(target, { a: { b: 2 } });
    assert.deepEqual(target, { a: { b: 1 } });
  });
});

describe('classify', () => {
  const business = { name: ' Acme  Trading ', kind: 'business' as const };
  const person = { name: 'Thandi Nkosi', kind: 'individual' as const };

  it('is Me for the caller’s own business or person, compared trimmed and case-insensitively', () => {
    assert.deepEqual(classify({ business: { registeredName: 'ACME trading' } }, business), {
      classification: 'Me',
    });
    assert.deepEqual(classify({ individual: { firstName: ' thandi', lastName: 'NKOSI ' } }, person), {
      classification: 'Me',
    });
  });

  it('is Unverified otherwise, TIER_1 only with complete identity details', () => {
    assert.deepEqual(classify({ business: { registeredName: 'Acme Trading' } }, person), {
      classification: 'Unverified',
      unverifiedTier: 'TIER_0',
    });
    assert.deepEqual(classify({ individual: { firstName: 'Acme', lastName: 'Trading' } }, business), {
      classification: 'Unverified',
      unverifiedTier: 'TIER_0',
    });
    assert.equal(
      classify(
        { business: { registeredName: 'X', registrationNumber: '1', countryIsoCode2: 'ZA' } },
        business,
      ).unverifiedTier,
      'TIER_1',
    );
    assert.equal(
      classify({ business: { registeredName: 'X', registrationNumber: '1' } }, business).unverifiedTier,
      'TIER_0',
    );
    const complete = {
      firstName: 'A',
      lastName: 'B',
      dateOfBirth: '1990-01-01',
      idType: 'PASSPORT' as const,
      idNumber: 'P1',
      idCountryIsoCode2: 'ZA',
    };
    assert.equal(classify({ individual: complete }, business).unverifiedTier, 'TIER_1');
    for (const missing of ['dateOfBirth', 'idType', 'idNumber', 'idCountryIsoCode2'] as const) {
      const { [missing]: _, ...partial } = complete;
      assert.equal(classify({ individual: partial }, business).unverifiedTier, 'TIER_0', missing);
    }
    assert.equal(
      classify({ business: { registeredName: 'Acme Trading' } }, undefined).classification,
      'Unverified',
    );
  });
});

describe('mask', () => {
  it('shows only the last four characters and hides the length', () => {
    assert.equal(mask('123456789'), '******6789');
    assert.equal(mask('+254712345678'), '******5678');
    assert.equal(mask('12345678901234'), '******1234');
  });
});

describe('bank rules', () => {
  it('holds the documented rows and a default', () => {
    assert.deepEqual(Object.keys(bankRules).sort(), ['GB', 'KE', 'NG', 'ZA']);
    assert.ok(bankRuleFor('za').accountNumber.pattern.test('123456789'));
    assert.ok(!bankRuleFor('ZA').accountNumber.pattern.test('12345678'));
    assert.ok(bankRuleFor('NG').bankCode.pattern.test('058'));
    assert.ok(bankRuleFor('GB').bankCode.pattern.test('123456'));
    assert.ok(bankRuleFor('KE').accountNumber.pattern.test('12345678901234'));
    assert.ok(bankRuleFor('FR').accountNumber.pattern.test('FR7630006000011234567890189'));
    assert.ok(!bankRuleFor('FR').accountNumber.pattern.test('FR7630006000011234567890189123456789'));
  });
});

describe('countries and continents', () => {
  it('places every ISO 3166-1 country on exactly one continent', () => {
    for (const code of allAlpha2()) assert.notEqual(regionOf(code), 'Unknown', code);
    const listed = Object.values(continents).flatMap((codes) => codes.split(' '));
    assert.equal(new Set(listed).size, listed.length, 'a country is listed twice');
    for (const code of listed) assert.ok(realAlpha2(code), code);
    assert.equal(regionOf('ZA'), 'Africa');
    assert.equal(regionOf('GB'), 'Europe');
    assert.equal(regionOf('BR'), 'South America');
    assert.equal(regionOf('US'), 'North America');
    assert.equal(regionOf('JP'), 'Asia');
    assert.equal(regionOf('NZ'), 'Oceania');
  });

  it('accepts real alpha-2 codes in any case, and nothing else', () => {
    assert.equal(realAlpha2('za'), 'ZA');
    for (const bad of ['XX', 'ZAF', 'Z', '12', 'qq']) assert.equal(realAlpha2(bad), undefined, bad);
  });
});
