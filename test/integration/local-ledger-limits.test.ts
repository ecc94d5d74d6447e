// The limits the ledger adapter now meets: 100 operations and 20 signatures per envelope and 28-byte text
// memos (bounds of the XDR itself: past them Horizon cannot decode the envelope, so it answers
// transaction_malformed), weighted multi-signer transactions with several operation sources, and muxed
// (M…) destinations, credited to their base account. Envelopes past the XDR bounds cannot be written by
// the SDK, so they are assembled here from a valid envelope's bytes and signed by hand.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  Account,
  Asset,
  Keypair,
  Memo,
  MuxedAccount,
  Operation,
  type Transaction,
} from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { classifySubmissionError } from '../../lib/ledger/result-codes.ts';
import { failure, startTestLedger, stroops, type TestLedger } from '../support/local-ledger.ts';

const bank = Keypair.random();
const issuer = Keypair.random();
const vault = Keypair.random();
const cosigner = Keypair.random();
const USD = new Asset('USD', issuer.publicKey());
const pay = (destination: string, amount = '1', source?: string) =>
  Operation.payment({ destination, amount, asset: Asset.native(), ...(source ? { source } : {}) });

let ledger: TestLedger;

beforeAll(async () => {
  ledger = await startTestLedger({
    genesis: {
      accounts: [
        { publicKey: bank.publicKey(), nativeBalance: '1000000' },
        { publicKey: issuer.publicKey(), nativeBalance: '1000' },
        {
          // Payments need two of its keys (med 2); the fee and sequence only one (low 1).
          publicKey: vault.publicKey(),
          nativeBalance: '1000',
          thresholds: { low: 1, med: 2, high: 2 },
          signers: [{ key: cosigner.publicKey(), weight: 1 }],
        },
      ],
      pools: [
        {
          assetA: 'native',
          assetB: { code: 'USD', issuer: issuer.publicKey() },
          reserveA: '1000',
          reserveB: '500',
        },
      ],
    },
  });
});

afterAll(async () => {
  await ledger?.stop();
});

const uint32 = (n: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(n);
  return bytes;
};

/** A v1 envelope of these transaction bytes, signed by `signers` over this network's hash of them. */
function envelopeOf(txBytes: Buffer, signers: Keypair[]): string {
  const networkId = createHash('sha256').update(ledger.ledger.networkPassphrase).digest();
  const ENVELOPE_TYPE_TX = uint32(2);
  const hash = createHash('sha256')
    .update(Buffer.concat([networkId, ENVELOPE_TYPE_TX, txBytes]))
    .digest();
  const signatures = signers.map((s) => Buffer.concat([s.signatureHint(), uint32(64), s.sign(hash)]));
  return Buffer.concat([ENVELOPE_TYPE_TX, txBytes, uint32(signers.length), ...signatures]).toString('base64');
}

/** `bytes` with `from` (which must occur once) replaced by `to`. */
function patch(bytes: Buffer, from: Buffer, to: Buffer): Buffer {
  const at = bytes.indexOf(from);
  assert.ok(at >= 0 && bytes.indexOf(from, at + 1) < 0, 'the pattern occurs exactly once');
  return Buffer.concat([bytes.subarray(0, at), to, bytes.subarray(at + from.length)]);
}

const txBytes = (tx: Transaction) => Buffer.from(tx.tx.toXDR());

async function postRaw(envelope: string) {
  return failure(
    ledger.server.httpClient.post(`${ledger.ledger.url}/transactions`, `tx=${encodeURIComponent(envelope)}`),
  );
}

function assertMalformed(answer: Awaited<ReturnType<typeof postRaw>>, bound: RegExp) {
  assert.equal(answer.status, 400);
  assert.equal(answer.type, 'https://stellar.org/horizon-errors/transaction_malformed');
  assert.match(answer.data.extras.error, bound);
  assert.equal(classifySubmissionError(answer.error).errorCode, 'LEDGER_TX_MALFORMED');
}

async function open(count: number): Promise<Keypair[]> {
  const keys = Array.from({ length: count }, () => Keypair.random());
  const ops = keys.map((k) => Operation.createAccount({ destination: k.publicKey(), startingBalance: '10' }));
  await ledger.submit(await ledger.build(bank, ops));
  return keys;
}

describe('local ledger limits: operations, signatures, memos', () => {
  it('takes 100 operations; 101 is malformed', async () => {
    const op = pay(issuer.publicKey(), '0.0000001');
    const hundred = await ledger.build(bank, Array(100).fill(op), { fee: '10000' });
    const res = await ledger.submit(hundred);
    assert.equal(res.operation_count, 100);
    assert.equal(res.fee_charged, '10000');

    const next = await ledger.build(bank, Array(100).fill(op), { fee: '10100' });
    const opBytes = Buffer.from(op.toXDR());
    const bytes = patch(
      txBytes(next),
      Buffer.concat([uint32(100), opBytes]),
      Buffer.concat([uint32(101), opBytes, opBytes]),
    );
    assertMalformed(
      await postRaw(envelopeOf(bytes, [bank])),
      /operations: array length 101 exceeds maximum 100/,
    );
    assert.equal(
      (await ledger.server.loadAccount(bank.publicKey())).sequence,
      String(BigInt(next.sequence) - 1n),
    );
  });

  it('takes 20 signatures, one per operation source, each needed; 21 is malformed', async () => {
    const keys = await open(20);
    const [first] = keys;
    assert.ok(first);
    const ops = keys.map((k) => pay(bank.publicKey(), '1', k.publicKey()));
    const signedByAll = await ledger.build(first, ops, { signers: keys, fee: '2000' });
    assert.equal(signedByAll.signatures.length, 20);
    const res = await ledger.submit(signedByAll);
    assert.equal(res.successful, true);
    for (const k of keys.slice(1)) {
      const balance = (await ledger.server.loadAccount(k.publicKey())).balances.at(-1)?.balance ?? '';
      assert.equal(stroops(balance), 9_0000000n);
    }

    // One operation source short: that operation's op_bad_auth; nothing applied, nothing charged.
    const missing = await ledger.build(first, ops, { signers: keys.slice(0, 19), fee: '2000' });
    const refused = await failure(ledger.submit(missing));
    assert.equal(refused.codes?.transaction, 'tx_failed');
    assert.equal(refused.codes?.operations?.[19], 'op_bad_auth');
    assert.ok(refused.codes?.operations?.slice(0, 19).every((code) => code === 'op_success'));

    const one = await ledger.build(first, [pay(bank.publicKey())], { signers: [] });
    const signers = [first, ...Array.from({ length: 20 }, () => Keypair.random())];
    assertMalformed(
      await postRaw(envelopeOf(txBytes(one), signers)),
      /signatures: array length 21 exceeds maximum 20/,
    );
  });

  it('takes text memos up to 28 bytes, hash and return memos of 32; 29 bytes is malformed', async () => {
    const [alice] = await open(1);
    assert.ok(alice);
    const text = 'ü'.repeat(14);
    assert.equal(Buffer.byteLength(text), 28);
    const res = await ledger.submit(
      await ledger.build(alice, [pay(bank.publicKey())], { memo: Memo.text(text) }),
    );
    assert.equal(res.memo, text);
    const digest = createHash('sha256').update('invoice 7').digest();
    const hashed = await ledger.submit(
      await ledger.build(alice, [pay(bank.publicKey())], { memo: Memo.hash(digest) }),
    );
    assert.deepEqual([hashed.memo_type, hashed.memo], ['hash', digest.toString('base64')]);
    const returned = await ledger.submit(
      await ledger.build(alice, [pay(bank.publicKey())], { memo: Memo.return(digest.toString('hex')) }),
    );
    assert.deepEqual([returned.memo_type, returned.memo], ['return', digest.toString('base64')]);

    const a28 = await ledger.build(alice, [pay(bank.publicKey())], { memo: Memo.text('a'.repeat(28)) });
    const memoText = (length: number) =>
      Buffer.concat([uint32(1), uint32(length), Buffer.from('a'.repeat(length))]);
    const bytes = patch(txBytes(a28), memoText(28), Buffer.concat([memoText(29), Buffer.alloc(3)]));
    assertMalformed(await postRaw(envelopeOf(bytes, [alice])), /string byte length 29 exceeds maximum 28/);
  });
});

describe('local ledger limits: weighted signers and muxed destinations', () => {
  it("needs each operation source's medium threshold, in weight, whoever the transaction source is", async () => {
    const account = await ledger.server.loadAccount(vault.publicKey());
    assert.deepEqual(account.thresholds, { low_threshold: 1, med_threshold: 2, high_threshold: 2 });
    assert.deepEqual(
      account.signers.map((s) => [s.key, s.weight]),
      [
        [cosigner.publicKey(), 1],
        [vault.publicKey(), 1],
      ],
    );
    const alone = await ledger.build(vault, [pay(bank.publicKey())]);
    assert.deepEqual((await failure(ledger.submit(alone))).codes, {
      transaction: 'tx_failed',
      operations: ['op_bad_auth'],
    });
    const both = await ledger.build(vault, [pay(bank.publicKey())], { signers: [vault, cosigner] });
    assert.equal((await ledger.submit(both)).successful, true);

    // As another transaction's operation source: the same weight is needed.
    const borrowed = [pay(bank.publicKey(), '1', vault.publicKey())];
    const short = await ledger.build(bank, borrowed, { signers: [bank, vault] });
    assert.deepEqual((await failure(ledger.submit(short))).codes, {
      transaction: 'tx_failed',
      operations: ['op_bad_auth'],
    });
    const enough = await ledger.build(bank, borrowed, { signers: [bank, cosigner, vault] });
    assert.equal((await ledger.submit(enough)).successful, true);
    // The cosigner alone meets the low threshold (sequence and fee), not the payment's medium one.
    const cosigned = await ledger.build(vault, [pay(bank.publicKey())], { signers: [cosigner] });
    assert.deepEqual((await failure(ledger.submit(cosigned))).codes?.operations, ['op_bad_auth']);
  });

  it('credits a muxed (M…) destination’s base account, for payments and path payments', async () => {
    const [bob] = await open(1);
    assert.ok(bob);
    await ledger.submit(await ledger.build(bob, [Operation.changeTrust({ asset: USD })]));
    const muxed = new MuxedAccount(new Account(bob.publicKey(), '0'), '42').accountId();
    assert.match(muxed, /^M/);

    const res = await ledger.submit(await ledger.build(bank, [pay(muxed, '5')]));
    assert.equal(res.successful, true);
    const path = Operation.pathPaymentStrictSend({
      sendAsset: Asset.native(),
      sendAmount: '10',
      destination: muxed,
      destAsset: USD,
      destMin: '0.0000001',
    });
    await ledger.submit(await ledger.build(bank, [path]));

    const balances = (await ledger.server.loadAccount(bob.publicKey())).balances;
    // 10 to open it, 5 paid, 100 stroops for its trustline's fee.
    assert.equal(balances.at(-1)?.balance, '14.9999900');
    assert.ok(stroops((balances[0] as { balance: string }).balance) > 0n);
    const payments = await ledger.server.payments().forAccount(bob.publicKey()).order('desc').limit(2).call();
    for (const record of payments.records as unknown as Record<string, unknown>[]) {
      assert.equal(record.to, bob.publicKey());
      assert.equal(record.to_muxed, muxed);
      assert.equal(record.to_muxed_id, '42');
    }
  });
});
