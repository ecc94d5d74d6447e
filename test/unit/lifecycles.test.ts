// Every (state, event) pair of every money record's lifecycle table, against the lifecycle written out
// here a second time, by hand: a move the table adds, drops or sends elsewhere fails, and so does every
// pair that must be refused (a stale `processing` after `completed`, a provider report on a P2P payment).
// Then what the tables must hold whatever they say, that docs/lifecycles.md is drawn from them, and that
// nothing in lib/ writes a transaction record's status beside them.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { receiptLifecycle } from '../../lib/onramp-references/receipt-lifecycle.ts';
import { lifecyclesDocument } from '../../lib/payments/lifecycle/document.ts';
import { EVENT_TYPES, everyPair, type Lifecycle } from '../../lib/payments/lifecycle/machine.ts';
import { paymentLifecycle } from '../../lib/payments/lifecycle/payment.ts';
import { LIFECYCLES, lifecycleOf, stateOf } from '../../lib/payments/lifecycle/records.ts';
import { offrampLifecycle } from '../../lib/payments/ramps/offramp-lifecycle.ts';
import { onrampLifecycle } from '../../lib/payments/ramps/onramp-lifecycle.ts';
import { providerOnrampLifecycle } from '../../lib/payments/ramps/provider-onramp-lifecycle.ts';
import type { TransactionRecord } from '../../lib/payments/repo.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** `state event → next`, one line per allowed move; every pair not listed must be refused. */
const EXPECTED: [Lifecycle<string, string>, string][] = [
  [
    paymentLifecycle,
    `initiated ledger_landed → completed
     initiated ledger_refused → failed`,
  ],
  [
    offrampLifecycle,
    `initiated ledger_landed → leg_landed
     initiated ledger_refused → failed
     leg_landed provider_pending → paying_out
     leg_landed provider_processing → paying_out
     leg_landed provider_completed → completed
     leg_landed provider_failed → refund_due
     leg_landed provider_returned → refund_due
     leg_landed provider_rejected → refund_due
     paying_out provider_processing → paying_out
     paying_out provider_completed → completed
     paying_out provider_failed → refund_due
     paying_out provider_returned → refund_due
     completed provider_returned → refund_due
     completed provider_failed → refund_due
     refund_due owed_paid → refund_completed
     refund_due owed_refused → refund_due`,
  ],
  [
    onrampLifecycle,
    `initiated provider_pending → collecting
     initiated provider_processing → collecting
     initiated provider_completed → collected
     initiated provider_failed → failed
     initiated provider_returned → failed
     initiated provider_rejected → failed
     collecting provider_processing → collecting
     collecting provider_completed → collected
     collecting provider_failed → failed
     collecting provider_returned → failed
     collected owed_paid → completed
     collected owed_refused → collected`,
  ],
  [
    providerOnrampLifecycle,
    `initiated owed_paid → completed
     initiated owed_refused → initiated`,
  ],
  [
    receiptLifecycle as Lifecycle<string, string>,
    `held operations_paid → credited
     held operations_returned → resolved`,
  ],
];

describe('lifecycle tables', () => {
  for (const [lifecycle, moves] of EXPECTED) {
    it(`${lifecycle.kind}: every (state, event) pair moves where the lifecycle says, or is refused`, () => {
      const expected = new Map(
        moves.split('\n').map((line) => {
          const [state, event, , to] = line.trim().split(/\s+/);
          return [`${state} ${event}`, to];
        }),
      );
      const pairs = everyPair(lifecycle);
      const events = lifecycle.events ?? EVENT_TYPES;
      assert.equal(pairs.length, Object.keys(lifecycle.states).length * events.length);
      for (const [state, event, move] of pairs)
        assert.equal(move?.to ?? null, expected.get(`${state} ${event}`) ?? null, `${state} on ${event}`);
      for (const pair of expected.keys())
        assert.ok(
          pairs.some(([s, e]) => `${s} ${e}` === pair),
          `${pair} names no state of the table`,
        );
    });
  }

  for (const lifecycle of LIFECYCLES)
    it(`${lifecycle.kind}: final states have no way out, every other state has one, and each is reachable`, () => {
      const reachable = new Set([lifecycle.initial]);
      for (let grown = true; grown; ) {
        grown = false;
        for (const [state, , move] of everyPair(lifecycle))
          if (move && reachable.has(state) && !reachable.has(move.to)) {
            reachable.add(move.to);
            grown = true;
          }
      }
      for (const [state, info] of Object.entries(lifecycle.states)) {
        const exits = everyPair(lifecycle).filter(([s, , m]) => s === state && m && m.to !== state);
        assert.equal(exits.length === 0, info.final === true, `${state}: final exactly when it has no exit`);
        assert.ok(reachable.has(state), `${state} is reachable from ${lifecycle.initial}`);
        // Owed money is paid or retried, never refused: both owed events are moves.
        if (info.owed)
          for (const event of ['owed_paid', 'owed_refused'] as const)
            assert.ok(lifecycle.moves[state]?.[event], `${state} owes money: ${event} must move it`);
      }
    });

  it('a payout can only end at the beneficiary or back in the wallet once its leg landed', () => {
    // From any state after the leg, no path reaches `failed` (nothing moved) without a refund.
    const afterLeg = ['leg_landed', 'paying_out', 'completed', 'refund_due'];
    for (const [state, , move] of everyPair(offrampLifecycle))
      if (afterLeg.includes(state) && move) assert.notEqual(move.to, 'failed', `${state} → failed`);
  });

  it('records written before the state was kept are read into the state their members say', () => {
    const record = (members: Partial<TransactionRecord>) => members as TransactionRecord;
    const cases: [Partial<TransactionRecord>, string][] = [
      [{ transactionType: 'p2p', status: 'initiated' }, 'initiated'],
      [{ transactionType: 'offramp', status: 'processing', externalReference: null }, 'leg_landed'],
      [{ transactionType: 'offramp', status: 'processing', externalReference: 'P-1' }, 'paying_out'],
      [{ transactionType: 'offramp', status: 'failed', refundDue: true }, 'refund_due'],
      [{ transactionType: 'offramp', status: 'failed' }, 'failed'],
      [{ transactionType: 'onramp', status: 'processing', providerStatus: 'processing' }, 'collecting'],
      [{ transactionType: 'onramp', status: 'processing', providerStatus: 'completed' }, 'collected'],
      [{ transactionType: 'provider_onramp', status: 'initiated' }, 'initiated'],
      [{ transactionType: 'offramp', status: 'failed', refundDue: true, state: 'refund_due' }, 'refund_due'],
    ];
    for (const [members, state] of cases) {
      assert.equal(stateOf(record(members)), state, JSON.stringify(members));
      assert.ok(lifecycleOf(record(members)).states[state], `${state} is a state of its table`);
    }
  });

  it('docs/lifecycles.md is drawn from these tables (npm run lifecycle-docs)', () => {
    assert.equal(readFileSync(join(root, 'docs', 'lifecycles.md'), 'utf8'), lifecyclesDocument());
  });

  it('nothing in lib/ moves a transaction record but the lifecycle (lib/payments/lifecycle/apply.ts)', () => {
    // A move sets the status and its list keys (transactionKeys.statusKeys): only apply.ts may; the
    // entity (repo.ts) keys an inserted record by its status.
    const allowed = new Set(['payments/lifecycle/apply.ts', 'payments/repo.ts', 'db/keys.ts']);
    const files = readdirSync(join(root, 'lib'), { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.ts'),
    );
    const offenders = files.filter((file) => {
      const text = readFileSync(join(root, 'lib', file), 'utf8');
      const writesRecords =
        /statusKeys\(/.test(text) ||
        (/transactionKeys\.record\(/.test(text) && /\b(updateIf|transact|putIf)\b/.test(text));
      return writesRecords && !allowed.has(file);
    });
    assert.deepEqual(offenders, []);
    // repo.ts's one update writes the notice of a completed record, nothing of its state.
    const repo = readFileSync(join(root, 'lib', 'payments', 'repo.ts'), 'utf8');
    assert.equal(repo.match(/updateIf</g)?.length, 1);
    assert.doesNotMatch(repo, /set: \{[^}]*status/);
  });
});
