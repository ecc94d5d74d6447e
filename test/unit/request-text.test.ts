import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { tokenRequest } from '../../lib/auth/schema.ts';
import { isExactNumber, MAX_JSON_DEPTH, malformedStrings, scanJsonText } from '../../lib/http/json-text.ts';
import { cursorParam } from '../../lib/http/pagination.ts';
import { Problem } from '../../lib/http/problem.ts';
import { queryOf } from '../../lib/http/query.ts';
import { parseOrThrow } from '../../lib/http/validation.ts';
import { amountField } from '../../lib/ledger/amount-field.ts';

const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

function fieldErrorsOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof Problem);
    assert.equal(error.status, 400);
    return error.errors;
  }
  assert.fail('expected a 400 problem');
}

describe('JSON text scan', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels of nesting and refuses one more, naming where`, () => {
    assert.equal(scanJsonText(nested(MAX_JSON_DEPTH)).tooDeepAt, null);
    assert.equal(
      scanJsonText(nested(MAX_JSON_DEPTH + 1)).tooDeepAt,
      Array(MAX_JSON_DEPTH).fill('0').join('.'),
    );
    assert.notEqual(scanJsonText(`{"a":${nested(9000)}}`).tooDeepAt, null);
  });

  it('does not count brackets inside strings', () => {
    assert.equal(scanJsonText(JSON.stringify({ a: '['.repeat(100), b: '{\\"['.repeat(50) })).tooDeepAt, null);
  });

  it('names the path of every number a double cannot hold exactly', () => {
    const text = '{"a":{"b":[1,{"c":0.10000000000000001}]},"d":1e400,"e":9007199254740993,"f":0.10,"g":1e21}';
    assert.deepEqual(scanJsonText(text).inexactNumbers, ['a.b.1.c', 'd', 'e']);
  });

  it('tells exact numbers from inexact ones', () => {
    for (const exact of ['0', '-1', '0.1', '0.10', '1e21', '922337203685.4775', '9007199254740992'])
      assert.equal(isExactNumber(exact), true, exact);
    for (const inexact of [
      '9007199254740993',
      '123456789012345678901234567890',
      '1e400',
      '0.10000000000000001',
    ])
      assert.equal(isExactNumber(inexact), false, inexact);
  });

  it('names strings and member names that are not well-formed Unicode', () => {
    const body = JSON.parse('{"a":"ok","b":["x","\\ud800"],"c":{"\\udfff":1}}');
    assert.deepEqual(malformedStrings(body), ['b.1', 'c.\ufffd']);
    assert.deepEqual(malformedStrings({ a: 'é 🙂' }), []);
  });
});

describe('query', () => {
  it('decodes members, + as space', () => {
    assert.deepEqual(queryOf('a=1&b=x+y%21&c', true), { a: '1', b: 'x y!', c: '' });
    assert.deepEqual(queryOf(undefined, false), {});
  });

  it('refuses a repeated member, naming it once', () => {
    assert.deepEqual(
      fieldErrorsOf(() => queryOf('limit=1&limit=2&limit=3', true)),
      [{ field: 'limit', message: 'must not be repeated' }],
    );
  });

  it('refuses malformed escapes and lone surrogates', () => {
    assert.deepEqual(
      fieldErrorsOf(() => queryOf('a=%FF', true)),
      [{ field: 'a', message: 'is not valid percent-encoded UTF-8' }],
    );
    assert.deepEqual(
      fieldErrorsOf(() => queryOf('%zz=1', true)),
      [{ field: 'query', message: 'is not valid percent-encoded UTF-8' }],
    );
    assert.equal(fieldErrorsOf(() => queryOf('a=%ED%A0%80', true))?.[0]?.field, 'a');
  });

  it('refuses every member where the operation takes none, __proto__ included', () => {
    assert.deepEqual(
      fieldErrorsOf(() => queryOf('limit=1e309&__proto__=1', false)),
      [
        { field: 'limit', message: 'is not accepted' },
        { field: '__proto__', message: 'is not accepted' },
      ],
    );
  });
});

describe('amount', () => {
  it('takes positive numbers the ledger can hold, with at most 7 decimals', () => {
    for (const ok of [1, 0.0000001, 100.25, 922337203685.4775])
      assert.equal(amountField.safeParse(ok).success, true, String(ok));
  });

  it('refuses zero, negatives, 8 decimals, more than int64 stroops, and non-numbers', () => {
    for (const bad of [0, -1, 0.00000001, 922337203686, 1e21, Number.NaN, Number.POSITIVE_INFINITY, '10'])
      assert.equal(amountField.safeParse(bad).success, false, String(bad));
  });
});

// zod/mini has no locale of its own (every issue would read "Invalid input"); lib/zod.ts gives it
// English, so the messages integrators read in `errors` are the ones classic zod gave them.
describe('zod issue messages', () => {
  it("are zod's English ones where a schema gives none of its own", () => {
    assert.deepEqual(
      fieldErrorsOf(() =>
        parseOrThrow(tokenRequest, { clientId: '', clientSecret: 'x'.repeat(257) }, 'request body'),
      ),
      [
        { field: 'clientId', message: 'Too small: expected string to have >=1 characters' },
        { field: 'clientSecret', message: 'Too big: expected string to have <=256 characters' },
      ],
    );
    assert.deepEqual(
      fieldErrorsOf(() => parseOrThrow(cursorParam, '', 'query', 'cursor')),
      [{ field: 'cursor', message: 'Too small: expected string to have >=1 characters' }],
    );
  });
});
