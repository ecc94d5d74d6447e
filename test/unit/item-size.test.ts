// An item's size as DynamoDB's "item sizes and formats" page counts it: what tells whether a record's
// writes cost 1 unit or 2 (lib/db/item-size.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { attributeSizes, itemSize, valueSize } from '../../lib/db/item-size.ts';

describe('item size', () => {
  it('counts names and values in UTF-8 bytes, numbers by significant digits, null and booleans as 1', () => {
    assert.equal(itemSize({ pk: 'T#a', é: 'ü' }), 2 + 3 + 2 + 2);
    // 1 byte per two significant digits, plus 1; leading and trailing zeroes are not counted.
    assert.equal(valueSize(200), 2);
    assert.equal(valueSize(1796211575712), 8);
    assert.equal(valueSize(0.0012), 2);
    assert.equal(valueSize(null), 1);
    assert.equal(valueSize(true), 1);
  });

  it('a list or map: 3 bytes, and 1 more per element beside its size (a map member adds its name)', () => {
    assert.equal(valueSize([]), 3);
    assert.equal(valueSize(['ab', 'c']), 3 + 1 + 2 + 1 + 1);
    assert.equal(valueSize({ code: 'USDC', issuer: null }), 3 + (1 + 4 + 4) + (1 + 6 + 1));
    assert.equal(
      itemSize({ history: [{ s: 'completed', t: 1796211575712 }] }),
      7 + 3 + 1 + 3 + 1 + 1 + 9 + 1 + 1 + 8,
    );
  });

  it('leaves out members that are undefined (the marshaller drops them), and ranks the attributes by size', () => {
    assert.equal(itemSize({ a: 'x', b: undefined }), 2);
    assert.deepEqual(attributeSizes({ a: 'x', bb: 'yyyy', c: undefined }), [
      ['bb', 6],
      ['a', 2],
    ]);
  });
});
