import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { limitParam } from '../../lib/http/pagination.ts';

describe('limit', () => {
  it('defaults to 20 and caps at 100', () => {
    assert.equal(limitParam.parse(undefined), 20);
    assert.equal(limitParam.parse('1'), 1);
    assert.equal(limitParam.parse('100'), 100);
    assert.equal(limitParam.parse('101'), 100);
    assert.equal(limitParam.parse('999999999'), 100);
  });

  it('refuses non-numeric and non-positive values', () => {
    for (const bad of ['0', '-3', 'ten', '2.5', '', '1e3', '0x10']) {
      assert.equal(limitParam.safeParse(bad).success, false, bad);
    }
  });
});
