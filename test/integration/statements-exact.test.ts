// Statement figures exact to the stroop however large the balance (issue #35 §5): the local ledger holds
// 92,233,720,368.5477583 of an asset the platform issues as readily as 1, and a statement writes each
// amount and running balance from the ledger's decimal text, in JSON and in CSV, never through a double
// (which keeps 15 to 17 significant digits: 92233721368.5477583 would come out 92233721368.54776).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, it } from 'vitest';
import { pay } from '../../lib/ledger/operations.ts';
import { platformAccount } from '../../lib/ledger/platform-accounts.ts';
import { baseUrl, type Caller, newCaller } from '../support/api.ts';
import { type OwnWallet, ownWallet } from '../support/payments.ts';

const LARGE = '92233720368.5477583';

/** The statement's text as the caller receives it, before any JSON parser reads it into doubles. */
async function statementText(caller: Caller, wallet: OwnWallet, accept: string): Promise<string> {
  const query = new URLSearchParams({
    walletId: wallet.id,
    assetCode: 'USDC',
    startDate: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
    endDate: new Date().toISOString(),
  });
  const response = await fetch(`${baseUrl()}/statements/transactions?${query}`, {
    headers: { accept, 'x-service-auth': caller.tenant.apiKey, authorization: `Bearer ${caller.token}` },
  });
  const text = await response.text();
  assert.equal(response.status, 200, text);
  return text;
}

describe('statements exact to the stroop', () => {
  let alice: Caller;
  let wallet: OwnWallet;

  beforeAll(async () => {
    alice = await newCaller();
    wallet = await ownWallet(alice, 'USDC', 1000);
    const issuer = await platformAccount('sandbox', 'issuer:USDC');
    const paid = await pay({
      environment: 'sandbox',
      intentId: `statements-exact:${randomUUID()}`,
      from: issuer,
      to: wallet.publicKey,
      asset: { code: 'USDC', issuer: issuer.publicKey },
      amount: LARGE,
    });
    assert.equal(paid.status, 'succeeded');
  });

  it('writes each amount and running balance in JSON with every one of its 7 decimals', async () => {
    const text = await statementText(alice, wallet, 'application/json');
    assert.ok(text.includes(`"amount":${LARGE},`), text);
    assert.ok(text.includes('"runningBalance":92233721368.5477583,'), text);
    assert.ok(text.includes('"closingBalance":92233721368.5477583'), text);
    assert.ok(text.includes('"runningBalance":1000,'), text);
  });

  it('writes them the same in CSV', async () => {
    const text = await statementText(alice, wallet, 'text/csv');
    const row = text.split('\r\n').find((line) => line.includes(LARGE));
    assert.ok(row, text);
    assert.ok(row.includes(`,${LARGE},USDC,92233721368.5477583,`), row);
  });
});
