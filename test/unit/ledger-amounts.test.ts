import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { ledgerAmount } from '../../lib/ledger/amounts.ts';
import { LedgerInputError } from '../../lib/ledger/errors.ts';

describe('ledger amounts', () => {
  it('accepts positive decimal strings with at most 7 places, in plain form', () => {
    assert.equal(ledgerAmount('10'), '10');
    assert.equal(ledgerAmount('0.0000001'), '0.0000001');
    assert.equal(ledgerAmount('1.5000000'), '1.5');
    assert.equal(ledgerAmount('922337203685.4775807'), '922337203685.4775807');
  });

  it('refuses floats in disguise, zero, negatives, 8 places and overflow', () => {
    for (const bad of [
      '0',
      '0.0',
      '-1',
      '1e3',
      '0.00000001',
      'abc',
      '',
      '1.',
      '922337203685.4775808',
      'NaN',
    ]) {
      assert.throws(() => ledgerAmount(bad), LedgerInputError, bad);
    }
    assert.throws(() => ledgerAmount(1.5 as unknown as string), LedgerInputError);
  });
});

describe('ledger input errors', () => {
  it('become a 422 naming the field, never a 500', () => {
    const problem = new LedgerInputError('Amount exceeds what the ledger can hold', 'amount').toProblem();
    assert.equal(problem.status, 422);
    assert.deepEqual(problem.errors, [
      { field: 'amount', message: 'Amount exceeds what the ledger can hold' },
    ]);
  });
});
