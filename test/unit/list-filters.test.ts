// A list's optional filters as a FilterExpression (lib/db/filters.ts): what is unset filters nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { filterInput } from '../../lib/db/filters.ts';

describe('filterInput', () => {
  it('adds nothing when no filter is set', () => {
    assert.deepEqual(filterInput({}), {});
    assert.deepEqual(filterInput({ equals: { status: undefined }, contains: { walletIds: undefined } }), {});
  });

  it('ANDs the set filters, names through placeholders (reserved words included), values apart', () => {
    assert.deepEqual(
      filterInput({
        equals: { status: 'completed', transactionType: undefined, method: 'BANK' },
        contains: { walletIds: 'w-1' },
      }),
      {
        FilterExpression: '#f0 = :f0 AND #f1 = :f1 AND contains(#f2, :f2)',
        ExpressionAttributeNames: { '#f0': 'status', '#f1': 'method', '#f2': 'walletIds' },
        ExpressionAttributeValues: { ':f0': 'completed', ':f1': 'BANK', ':f2': 'w-1' },
      },
    );
  });
});
