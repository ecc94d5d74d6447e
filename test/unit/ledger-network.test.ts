import assert from 'node:assert/strict';
import { Networks } from '@stellar/stellar-sdk';
import { describe, it } from 'vitest';
import { resetConfig } from '../../lib/config.ts';

describe('ledger networks', () => {
  it('defaults to testnet for sandbox and the public network for production, each made once', async () => {
    for (const name of [
      'HORIZON_URL_SANDBOX',
      'HORIZON_URL_PRODUCTION',
      'NETWORK_PASSPHRASE_SANDBOX',
      'NETWORK_PASSPHRASE_PRODUCTION',
    ]) {
      delete process.env[name];
    }
    process.env.TABLE_NAME ??= 'unit-test';
    resetConfig();
    const { ledgerNetwork } = await import('../../lib/ledger/network.ts');
    const sandbox = ledgerNetwork('sandbox');
    const production = ledgerNetwork('production');
    assert.equal(sandbox.networkPassphrase, Networks.TESTNET);
    assert.equal(sandbox.horizonUrl, 'https://horizon-testnet.stellar.org');
    assert.equal(production.networkPassphrase, Networks.PUBLIC);
    assert.equal(production.horizonUrl, 'https://horizon.stellar.org');
    assert.equal(ledgerNetwork('sandbox'), sandbox);
    assert.notEqual(production, sandbox);
  });
});
