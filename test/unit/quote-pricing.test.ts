// Quote arithmetic. Expected figures are worked out by hand in the comments, not by the code under test.
import assert from 'node:assert/strict';
import BigNumber from 'bignumber.js';
import { describe, it } from 'vitest';
import { feeOf, priceOffRamp, priceOnRamp } from '../../lib/quotes/pricing.ts';

const n = (value: string) => new BigNumber(value);
const plain = (priced: Record<string, BigNumber>) =>
  Object.fromEntries(Object.entries(priced).map(([k, v]) => [k, v.toFixed()]));

describe('fees', () => {
  it('is percentage of the amount plus the fixed part', () => {
    // 100 × 0.5 % + 0.50 = 1.00
    assert.equal(feeOf(n('100'), { percentage: '0.5', fixed: '0.50' }, 2).toFixed(), '1');
  });

  it('rounds half up to the minor units of the fee currency', () => {
    // 50.50 × 1 % + 0.25 = 0.755 → 0.76 (half-up; half-even or down would give 0.75)
    assert.equal(feeOf(n('50.50'), { percentage: '1', fixed: '0.25' }, 2).toFixed(), '0.76');
    // 123.45 × 1 % + 0.25 = 1.4845 → 1.48
    assert.equal(feeOf(n('123.45'), { percentage: '1', fixed: '0.25' }, 2).toFixed(), '1.48');
    // 10.01 × 0.75 % = 0.075075 → 0.08
    assert.equal(feeOf(n('10.01'), { percentage: '0.75', fixed: '0' }, 2).toFixed(), '0.08');
    // 0 decimals: 1234 × 1.5 % + 10 = 28.51 → 29
    assert.equal(feeOf(n('1234'), { percentage: '1.5', fixed: '10' }, 0).toFixed(), '29');
  });

  it('is exactly zero for a zero schedule', () => {
    assert.equal(feeOf(n('987.65'), { percentage: '0', fixed: '0' }, 2).toFixed(), '0');
  });

  it('never goes through floats (0.1 + 0.2 stays 0.3)', () => {
    // 10 × 1 % + 0.2 = 0.1 + 0.2 = 0.3 exactly
    assert.equal(feeOf(n('10'), { percentage: '1', fixed: '0.2' }, 2).toFixed(), '0.3');
  });
});

describe('off-ramp pricing', () => {
  it('adds the fee on top and converts the amount', () => {
    // 100 USDC at 18.50 ZAR: fee 1.00, total 101.00, receive 1850.00
    const priced = priceOffRamp({
      amount: n('100'),
      rate: n('18.50'),
      fee: { percentage: '0.5', fixed: '0.50' },
      sendDecimals: 2,
      receiveDecimals: 2,
    });
    assert.deepEqual(plain({ ...priced }), {
      sendAmount: '100',
      fee: '1',
      total: '101',
      receiveAmount: '1850',
    });
  });

  it('rounds the received amount down to its minor units', () => {
    // 10.33 USDC × 605 XAF = 6249.65 → 6249 (XAF has no minor units); fee 10.33 × 1.5 % + 1 = 1.15495 → 1.15
    const priced = priceOffRamp({
      amount: n('10.33'),
      rate: n('605'),
      fee: { percentage: '1.5', fixed: '1.00' },
      sendDecimals: 2,
      receiveDecimals: 0,
    });
    assert.deepEqual(plain({ ...priced }), {
      sendAmount: '10.33',
      fee: '1.15',
      total: '11.48',
      receiveAmount: '6249',
    });
  });

  it('keeps total = sendAmount + fee exactly after rounding', () => {
    for (const [amount, pct, fixed] of [
      ['0.01', '33.3333', '0'],
      ['999.99', '0.3333', '0.01'],
      ['1', '2.5', '0.125'],
    ] as const) {
      const p = priceOffRamp({
        amount: n(amount),
        rate: n('129'),
        fee: { percentage: pct, fixed },
        sendDecimals: 2,
        receiveDecimals: 2,
      });
      assert.ok(p.total.eq(p.sendAmount.plus(p.fee)));
      assert.ok((p.fee.decimalPlaces() ?? 0) <= 2 && (p.total.decimalPlaces() ?? 0) <= 2);
    }
  });
});

describe('on-ramp pricing', () => {
  it('takes the fee out of what is paid in and converts the rest', () => {
    // 1000 KES, fee 1 % = 10.00, net 990 ÷ 129 = 7.6744… → 7.67 USDC; total = sendAmount
    const priced = priceOnRamp({
      amount: n('1000'),
      rate: n('129.00'),
      fee: { percentage: '1', fixed: '0' },
      sendDecimals: 2,
      receiveDecimals: 2,
    });
    assert.deepEqual(plain({ ...priced }), {
      sendAmount: '1000',
      fee: '10',
      total: '1000',
      receiveAmount: '7.67',
    });
  });

  it('floors the conversion even when the quotient repeats', () => {
    // 500 GHS, fee 7.50 + 1.00 = 8.50, net 491.50 ÷ 15.20 = 32.3355… → 32.33
    const priced = priceOnRamp({
      amount: n('500'),
      rate: n('15.20'),
      fee: { percentage: '1.5', fixed: '1.00' },
      sendDecimals: 2,
      receiveDecimals: 2,
    });
    assert.equal(priced.receiveAmount.toFixed(), '32.33');
    assert.equal(priced.fee.toFixed(), '8.5');
    // 2.99 ÷ 1.00 with 7 decimals stays 2.99 exactly; 1 ÷ 3 floors to 0.3333333
    assert.equal(
      priceOnRamp({
        amount: n('1'),
        rate: n('3'),
        fee: { percentage: '0', fixed: '0' },
        sendDecimals: 2,
        receiveDecimals: 7,
      }).receiveAmount.toFixed(),
      '0.3333333',
    );
  });

  it('gives nothing (or less) when the fee eats the amount', () => {
    const priced = priceOnRamp({
      amount: n('1'),
      rate: n('15.20'),
      fee: { percentage: '0', fixed: '1.00' },
      sendDecimals: 2,
      receiveDecimals: 2,
    });
    assert.equal(priced.receiveAmount.toFixed(), '0');
  });
});
