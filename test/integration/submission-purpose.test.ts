// An intent serves one purpose (submit.ts `purpose`): the same intent id asked for something else is
// refused with IntentConflict before anything is built or submitted, also when two callers race to write
// it first. Against a local ledger of this test's own and DynamoDB Local; every test counts the payments.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Asset, Keypair, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { resetConfig } from '../../lib/config.ts';
import { platformLedgerAccount } from '../../lib/ledger/load-account.ts';
import type { BuildTransaction } from '../../lib/ledger/submit.ts';
import { type LocalLedger, startLocalLedger } from '../../local/ledger/index.ts';

type Submit = typeof import('../../lib/ledger/submit.ts');

describe('submission purposes', () => {
  let ledger: LocalLedger;
  let submit: Submit;
  let IntentConflict: typeof import('../../lib/ledger/errors.ts').IntentConflict;
  let purposeOf: typeof import('../../lib/ledger/purpose.ts').purposeOf;
  const payer = Keypair.random();
  const payees = Array.from({ length: 3 }, () => Keypair.random().publicKey());

  const paymentsTo = async (payee: string) => {
    const response = await fetch(`${ledger.url}/accounts/${payee}/payments?limit=200`);
    const body = (await response.json()) as { _embedded: { records: { type: string; from: string }[] } };
    return body._embedded.records.filter((p) => p.type === 'payment' && p.from === payer.publicKey()).length;
  };

  /** Pays `amount` XLM from `payer`; `before` runs before each build, `builds` counts them. */
  const payment = (payee: string, amount: string, before?: () => Promise<void>) => {
    const counted = { builds: 0 };
    const build: BuildTransaction = async (ctx) => {
      counted.builds++;
      await before?.();
      const loaded = await platformLedgerAccount(ctx.environment, payer.publicKey(), 'source');
      const tx = new TransactionBuilder(submit.sourceAccountFor(ctx, loaded), {
        fee: submit.baseFeeFor(ctx.feeLevel),
        networkPassphrase: ctx.networkPassphrase,
        timebounds: submit.timeBoundsFor(ctx.now),
      })
        .addOperation(Operation.payment({ destination: payee, asset: Asset.native(), amount }))
        .build();
      tx.sign(payer);
      return tx;
    };
    return Object.assign(counted, { build });
  };

  beforeAll(async () => {
    ledger = await startLocalLedger({
      port: 0,
      networkPassphrase: `Submission purposes ; ${randomUUID()}`,
      genesis: {
        accounts: [
          { publicKey: payer.publicKey(), nativeBalance: '100000' },
          ...payees.map((publicKey) => ({ publicKey, nativeBalance: '100' })),
        ],
      },
    });
    process.env.HORIZON_URL_SANDBOX = ledger.url;
    process.env.NETWORK_PASSPHRASE_SANDBOX = ledger.networkPassphrase;
    resetConfig();
    submit = await import('../../lib/ledger/submit.ts');
    ({ IntentConflict } = await import('../../lib/ledger/errors.ts'));
    ({ purposeOf } = await import('../../lib/ledger/purpose.ts'));
  });

  afterAll(async () => {
    await ledger?.stop();
  });

  it('answers the same purpose from the record, and refuses another one before building anything', async () => {
    const [payee = ''] = payees;
    const intentId = `purpose-test:${randomUUID()}`;
    const purpose = purposeOf({ payee, amount: '1' });
    const first = payment(payee, '1');
    const outcome = await submit.submitOnce({
      environment: 'sandbox',
      intentId,
      purpose,
      build: first.build,
    });
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
    assert.equal(
      (await submit.prepareSubmission({ environment: 'sandbox', intentId, purpose, build: first.build }))
        .status,
      'succeeded',
    );

    // The same request again: the recorded outcome, nothing built.
    const again = payment(payee, '1');
    assert.deepEqual(
      await submit.submitOnce({ environment: 'sandbox', intentId, purpose, build: again.build }),
      outcome,
    );
    // Another request under the same intent id: refused, by submitOnce and by prepareSubmission.
    const other = payment(payee, '2');
    const otherPurpose = purposeOf({ payee, amount: '2' });
    await assert.rejects(
      submit.submitOnce({ environment: 'sandbox', intentId, purpose: otherPurpose, build: other.build }),
      (error) => error instanceof IntentConflict && error.intentId === intentId,
    );
    await assert.rejects(
      submit.prepareSubmission({
        environment: 'sandbox',
        intentId,
        purpose: otherPurpose,
        build: other.build,
      }),
      IntentConflict,
    );
    assert.equal(again.builds + other.builds, 0, 'nothing was built for the later calls');
    assert.equal(await paymentsTo(payee), 1);
  });

  it('refuses a purpose to an intent recorded without one, and does not check callers that state none', async () => {
    const [, payee = ''] = payees;
    const intentId = `purpose-test:${randomUUID()}`;
    const pay = payment(payee, '1');
    const outcome = await submit.submitOnce({ environment: 'sandbox', intentId, build: pay.build });
    assert.equal(outcome.status, 'succeeded');
    assert.deepEqual(
      await submit.submitOnce({ environment: 'sandbox', intentId, build: pay.build }),
      outcome,
    );
    await assert.rejects(
      submit.submitOnce({
        environment: 'sandbox',
        intentId,
        purpose: purposeOf({ payee }),
        build: pay.build,
      }),
      IntentConflict,
    );
    assert.equal(pay.builds, 1);
    assert.equal(await paymentsTo(payee), 1);
  });

  it('refuses the caller that loses the race to write a new intent for another purpose', async () => {
    const [, , payee = ''] = payees;
    const intentId = `purpose-test:${randomUUID()}`;
    // Both callers have found no record and are building before either writes one.
    let started = 0;
    let bothStarted: () => void = () => undefined;
    const barrier = new Promise<void>((resolve) => {
      bothStarted = resolve;
    });
    const meet = async () => {
      if (++started === 2) bothStarted();
      await barrier;
    };
    const one = payment(payee, '1', meet);
    const two = payment(payee, '2', meet);
    const results = await Promise.allSettled([
      submit.submitOnce({
        environment: 'sandbox',
        intentId,
        purpose: purposeOf({ amount: '1' }),
        build: one.build,
      }),
      submit.submitOnce({
        environment: 'sandbox',
        intentId,
        purpose: purposeOf({ amount: '2' }),
        build: two.build,
      }),
    ]);

    const succeeded = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    assert.equal(succeeded.length, 1, JSON.stringify(results));
    assert.equal(succeeded[0]?.value.status, 'succeeded');
    assert.equal(refused.length, 1);
    assert.ok(refused[0]?.reason instanceof IntentConflict, String(refused[0]?.reason));
    assert.equal(await paymentsTo(payee), 1);
  });
});
