// Response bodies in plain decimals (lib/http/plain-json.ts): what JSON.stringify writes in exponent
// form, written out in full, and read back as the same number.
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { plainJson, plainNumber } from '../../lib/http/plain-json.ts';

describe('plain JSON', () => {
  it('writes a number without an exponent, exactly the number it was', () => {
    const cases: [number, string][] = [
      [1e-7, '0.0000001'],
      [5e-7, '0.0000005'],
      [1.2345e-7, '0.00000012345'],
      [-3e-7, '-0.0000003'],
      [0.000001, '0.000001'],
      [0, '0'],
      [1e21, '1000000000000000000000'],
      [123.456, '123.456'],
    ];
    for (const [value, text] of cases) {
      assert.equal(plainNumber(value), text);
      assert.equal(Number(text), value);
    }
  });

  it('writes a body as JSON.stringify does, but for numbers in exponent form', () => {
    const body = { amount: 5e-7, legs: [{ amount: 1e-7 }, { amount: 2.5 }], id: '1e-7', none: null };
    const text = plainJson(body);
    assert.equal(
      text,
      '{"amount":0.0000005,"legs":[{"amount":0.0000001},{"amount":2.5}],"id":"1e-7","none":null}',
    );
    assert.deepEqual(JSON.parse(text), body);
  });
});
