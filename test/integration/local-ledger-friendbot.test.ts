// The local ledger's friendbot: GET (or POST) /friendbot?addr=G… opens a new account with 10000 XLM, as the
// test network's does; an existing account or a bad address is friendbot's 400. Off on the public network.
import assert from 'node:assert/strict';
import { Keypair, Networks } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { failure, startTestLedger, type TestLedger } from '../support/local-ledger.ts';

let ledger: TestLedger;

beforeAll(async () => {
  ledger = await startTestLedger({ genesis: { accounts: [] } });
});

afterAll(async () => {
  await ledger?.stop();
});

describe('local ledger friendbot', () => {
  it('opens a new account with 10000 XLM and answers with its transaction', async () => {
    assert.equal(ledger.ledger.friendbotUrl, `${ledger.ledger.url}/friendbot`);
    const alice = Keypair.random();
    // The SDK's call builders turn `_links` into functions: the ledger number is `ledger_attr`.
    const res = (await ledger.server.friendbot(alice.publicKey()).call()) as unknown as {
      hash: string;
      successful: boolean;
      ledger_attr: number;
    };
    assert.equal(res.successful, true);
    const account = await ledger.server.loadAccount(alice.publicKey());
    assert.equal(account.balances.at(-1)?.balance, '10000.0000000');
    const found = await ledger.server.transactions().transaction(res.hash).call();
    assert.equal(found.ledger_attr, res.ledger_attr);
    const ops = await ledger.server.operations().forTransaction(res.hash).call();
    assert.equal(ops.records[0]?.type, 'create_account');

    const bob = Keypair.random();
    const posted = await ledger.http('/friendbot', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ addr: bob.publicKey() }),
    });
    assert.equal(posted.status, 200);
    assert.ok(posted.headers.get('latest-ledger'));
  });

  it('refuses an existing account and a bad address with a 400', async () => {
    const alice = Keypair.random();
    await ledger.server.friendbot(alice.publicKey()).call();
    const again = await failure(ledger.server.friendbot(alice.publicKey()).call());
    assert.equal(again.status, 400);
    assert.equal(again.type, 'https://stellar.org/horizon-errors/bad_request');
    assert.match(again.data.detail, /^createAccountAlreadyExist/);
    for (const addr of ['nonsense', Keypair.random().secret()]) {
      const bad = await ledger.http(`/friendbot?addr=${addr}`);
      assert.equal(bad.status, 400);
      assert.equal(bad.body.extras.invalid_field, 'addr');
    }
    assert.equal((await ledger.http('/friendbot')).status, 400);
  });

  it('funds concurrent requests within one ledger on a cadence (through its channel accounts)', async () => {
    const paced = await startTestLedger({ genesis: { accounts: [] }, closeIntervalMs: 200 });
    try {
      const keys = Array.from({ length: 6 }, () => Keypair.random());
      const answers = await Promise.all(
        keys.map(
          (k) => paced.server.friendbot(k.publicKey()).call() as unknown as Promise<{ ledger_attr: number }>,
        ),
      );
      // Four channel accounts: six requests need two ledgers at most.
      assert.ok(new Set(answers.map((a) => a.ledger_attr)).size <= 2);
      for (const k of keys) assert.ok(await paced.server.loadAccount(k.publicKey()));
    } finally {
      await paced.stop();
    }
  });

  it('does not exist on the public network', async () => {
    const pubnet = await startTestLedger({ genesis: { accounts: [] }, networkPassphrase: Networks.PUBLIC });
    try {
      assert.equal(pubnet.ledger.friendbotUrl, undefined);
      assert.equal((await pubnet.http(`/friendbot?addr=${Keypair.random().publicKey()}`)).status, 404);
    } finally {
      await pubnet.stop();
    }
  });
});
