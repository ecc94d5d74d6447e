// The off-ramp limits (lib/payments/ramps/limits.ts) as pure arithmetic: every connector scope and type,
// and the caps by destination state and beneficiary standing, each broken by one unit.
import assert from 'node:assert/strict';
import BigNumber from 'bignumber.js';
import { describe, it } from 'vitest';
import type { ConnectorLimit } from '../../lib/connectors/catalogue-schema.ts';
import { limitErrors, limitsFor, RAMP_CAPS, type WindowUse } from '../../lib/payments/ramps/limits.ts';

const limit = (
  scope: ConnectorLimit['scope'],
  type: ConnectorLimit['type'],
  maxValue: number,
  minValue = 0,
) =>
  ({
    scope,
    type,
    duration: { TRANSACTION: 0, DAILY: 86_400, WEEKLY: 604_800, MONTHLY: 2_592_000 }[scope],
    minValue,
    maxValue,
    currency: type === 'AMOUNT' ? 'USDC' : null,
  }) as ConnectorLimit;

const used =
  (byDuration: Record<number, WindowUse>) =>
  (duration: number): WindowUse =>
    byDuration[duration] ?? { amount: new BigNumber(0), count: 0 };

const errorsOf = (limits: ConnectorLimit[], amount: number, window: Record<number, WindowUse> = {}) =>
  limitErrors(
    limits.map((l) => ({ ...l, source: 'connector' })),
    new BigNumber(amount),
    'USDC',
    used(window),
  ).map((e) => e.message);

describe('off-ramp limits', () => {
  it('a TRANSACTION amount above its maximum or below its minimum is refused, at the bound it is not', () => {
    const limits = [limit('TRANSACTION', 'AMOUNT', 100, 1)];
    assert.deepEqual(errorsOf(limits, 100), []);
    assert.deepEqual(errorsOf(limits, 1), []);
    assert.match(errorsOf(limits, 100.01)[0] ?? '', /exceeds the TRANSACTION AMOUNT limit .* of 100 USDC/);
    assert.match(errorsOf(limits, 0.99)[0] ?? '', /below the TRANSACTION AMOUNT limit .* minimum of 1 USDC/);
  });

  for (const [scope, seconds] of [
    ['DAILY', 86_400],
    ['WEEKLY', 604_800],
    ['MONTHLY', 2_592_000],
  ] as const)
    it(`a ${scope} amount counts what the window already holds`, () => {
      const limits = [limit(scope, 'AMOUNT', 1000)];
      const window = { [seconds]: { amount: new BigNumber(900), count: 3 } };
      assert.deepEqual(errorsOf(limits, 100, window), []);
      assert.match(
        errorsOf(limits, 100.0000001, window)[0] ?? '',
        new RegExp(`over the ${scope} AMOUNT limit`),
      );
    });

  it('a COUNT limit counts payments, this one included', () => {
    const limits = [limit('DAILY', 'COUNT', 20)];
    assert.deepEqual(errorsOf(limits, 1, { 86400: { amount: new BigNumber(19), count: 19 } }), []);
    assert.match(
      errorsOf(limits, 1, { 86400: { amount: new BigNumber(20), count: 20 } })[0] ?? '',
      /DAILY COUNT limit .* of 20 payments/,
    );
  });

  it('the caps by verification state and standing join the connector’s, the lower one binding', () => {
    const connector = [limit('TRANSACTION', 'AMOUNT', 10000)];
    assert.equal(limitsFor(connector, 'USDC', 'APPROVED', 'Me').length, 1);
    for (const state of ['PENDING', 'REJECTED'] as const) {
      const cap = RAMP_CAPS[state].TIER_0;
      assert.ok(cap);
      const limits = limitsFor(connector, 'USDC', state, 'TIER_0');
      const errors = limitErrors(limits, new BigNumber(cap.transaction + 1), 'USDC', used({}));
      assert.match(errors[0]?.message ?? '', new RegExp(`destination ${state}, beneficiary TIER_0`));
      assert.deepEqual(limitErrors(limits, new BigNumber(cap.transaction), 'USDC', used({})), []);
    }
  });
});
