// While the ledger cannot be read at acceptance, a payment is still accepted: the spendable check
// (lib/payments/spendable.ts) is skipped, with a warning, and the ledger decides. The payments function
// runs in this process with its Horizon URL pointing at a port nothing listens on; the stack's workers,
// which execute the record, keep the real ledger.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it, onTestFinished } from 'vitest';
import { freePort } from '../../local/ports.ts';
import { horizon, newCaller } from '../support/api.ts';
import { captureLogs } from '../support/logs.ts';
import { ownWallet, settled } from '../support/payments.ts';

/** The account's balances as the stack's ledger has them (this process's configuration points elsewhere). */
const balancesOf = async (publicKey: string) => (await horizon(`/accounts/${publicKey}`)).balances;

describe('payment acceptance while the ledger is down', () => {
  it('accepts an overdraw it cannot check (warned), which the ledger then fails whole: nothing moves', async () => {
    const logs = captureLogs();
    onTestFinished(() => logs.restore());
    // Before anything in this process reads its configuration (the stack's gateway keeps the real ledger).
    process.env.HORIZON_URL_SANDBOX = `http://127.0.0.1:${await freePort()}`;
    process.env.LEDGER_TIMEOUT_MS = '1000';
    const alice = await newCaller();
    const [a, b] = await Promise.all([ownWallet(alice, 'USDC', 5), ownWallet(alice, 'USDC', 5)]);
    const before = { a: await balancesOf(a.publicKey), b: await balancesOf(b.publicKey) };

    const { toApiGatewayEvent, lambdaContext } = await import('../../local/lambda-event.ts');
    const { handler } = await import('../../functions/api/payments.ts');
    const body = {
      transactionId: randomUUID(),
      transfers: [
        { walletId: a.id, destinationWalletId: b.id, sendingAssetCode: 'USDC', amount: 1 },
        { walletId: b.id, destinationWalletId: a.id, sendingAssetCode: 'USDC', amount: 100 },
      ],
    };
    const answer = await handler(
      toApiGatewayEvent(
        {
          method: 'POST',
          url: '/v1/payments/p2p/own/multi',
          headers: {
            'x-service-auth': alice.tenant.apiKey,
            authorization: `Bearer ${alice.token}`,
            'content-type': 'application/json',
          },
          body: Buffer.from(JSON.stringify(body)),
        },
        'POST /v1/payments/p2p/own/multi',
        {},
      ),
      lambdaContext('payments'),
    );
    assert.equal(answer.statusCode, 202, answer.body);
    const skipped = logs.lines.filter((line) => String(line.message).startsWith('Spendable check skipped'));
    assert.deepEqual(
      skipped.map((line) => [line.level, line.walletId]).sort(),
      [
        ['WARN', a.id],
        ['WARN', b.id],
      ].sort(),
    );

    const record = await settled(alice, JSON.parse(answer.body ?? '{}').transactionRecordId);
    assert.equal(record.status, 'failed', JSON.stringify(record));
    assert.equal(record.errorCode, 'LEDGER_OP_UNDERFUNDED');
    assert.deepEqual(await balancesOf(a.publicKey), before.a);
    assert.deepEqual(await balancesOf(b.publicKey), before.b);
  });
});
