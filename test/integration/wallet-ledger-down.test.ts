// While the ledger cannot be read, a wallet is still returned (200) with balances: null.
// The function runs in this process with its Horizon URL pointing at a port nothing listens on.
import assert from 'node:assert/strict';
import { describe, it, onTestFinished } from 'vitest';
import { freePort } from '../../local/ports.ts';
import { call, createdWalletId, newTenant, tokenFor } from '../support/api.ts';
import { captureLogs } from '../support/logs.ts';

describe('wallets while the ledger is down', () => {
  it('answers 200 with balances null, and warns that the ledger could not be read', async () => {
    const logs = captureLogs();
    onTestFinished(() => logs.restore());
    // Before anything in this process reads its configuration (the stack's gateway keeps the real ledger).
    process.env.HORIZON_URL_SANDBOX = `http://127.0.0.1:${await freePort()}`;
    process.env.LEDGER_TIMEOUT_MS = '1000';
    const tenant = await newTenant();
    const token = await tokenFor(tenant);
    const id = await createdWalletId(tenant, token, 'Down');
    const deadline = Date.now() + 30_000;
    while (
      (await call(`/wallets/${id}`, { apiKey: tenant.apiKey, token })).body.activationStatus === 'pending'
    ) {
      assert.ok(Date.now() < deadline, 'activation did not finish');
      await new Promise((r) => setTimeout(r, 200));
    }

    const { toApiGatewayEvent, lambdaContext } = await import('../../local/lambda-event.ts');
    const { handler } = await import('../../functions/api/wallets.ts');
    const invoke = (url: string, routeKey: string) =>
      handler(
        toApiGatewayEvent(
          {
            method: 'GET',
            url,
            headers: { 'x-service-auth': tenant.apiKey, authorization: `Bearer ${token}` },
            body: Buffer.alloc(0),
          },
          routeKey,
          { walletId: id },
        ),
        lambdaContext('wallets'),
      );
    const wallet = await invoke(`/v1/wallets/${id}`, 'GET /v1/wallets/{walletId}');
    assert.equal(wallet.statusCode, 200, wallet.body);
    const body = JSON.parse(wallet.body ?? '{}');
    assert.equal(body.id, id);
    assert.equal(body.balances, null);
    const warnings = logs.lines.filter((line) => line.message === 'Balance lookup failed');
    assert.equal(warnings.length, 1);
    assert.ok(warnings.every((line) => line.level === 'WARN' && line.walletId === id));
  });
});
