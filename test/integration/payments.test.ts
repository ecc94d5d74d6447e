// Payments end to end, as a new user makes them: two funded own wallets, a P2P between them, a swap into
// a wallet without the received asset's trustline, a self-swap, a three-leg multi-transfer, and a P2P and
// a swap to a beneficiary's CRYPTO destination (an outsider's account made with the local friendbot).
// Every record must reach `completed` with a stellarTxHash whose ledger transaction carries its amounts,
// and the ledger balances must move by exactly what the records say.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Account, Asset, MuxedAccount } from '@stellar/stellar-sdk';
import BigNumber from 'bignumber.js';
import { beforeAll, describe, it } from 'vitest';
import { as, type Caller, newCaller } from '../support/api.ts';
import { cryptoDestination } from '../support/fixtures.ts';
import {
  accepted,
  balancesOf,
  horizon,
  type OwnWallet,
  operationsOf,
  outsiderAccount,
  ownWallet,
  recordWhen,
  settled,
  submit,
} from '../support/payments.ts';

const sum = (...amounts: (string | number)[]) =>
  amounts.reduce<BigNumber>((total, amount) => total.plus(amount), new BigNumber(0)).toFixed(7);

describe('payments end to end', () => {
  let alice: Caller;
  let a: OwnWallet;
  let b: OwnWallet;

  beforeAll(async () => {
    alice = await newCaller();
    [a, b] = await Promise.all([ownWallet(alice, 'USDC', 1000), ownWallet(alice, 'USDC')]);
  });

  it('a P2P between own wallets completes with the amount on the ledger, and a replay is idempotent', async () => {
    const before = { a: await balancesOf(a.publicKey), b: await balancesOf(b.publicKey) };
    const body = {
      transactionId: randomUUID(),
      walletId: a.id,
      destinationWalletId: b.id,
      sendingAssetCode: 'usdc',
      amount: 25.5,
      memo: 'rent',
      fromRef: 'RENT-11',
      toRef: null,
    };
    const id = await accepted(alice, 'p2p/own', body);
    const record = await settled(alice, id);
    assert.equal(record.status, 'completed', JSON.stringify(record));
    assert.equal(record.type, 'p2p');
    assert.equal(record.sendAmount, 25.5);
    assert.equal(record.receiveAmount, 25.5);
    assert.equal(record.fee, 0);
    assert.equal(record.exchangeRate, 1);
    assert.equal(record.sendingAsset, 'USDC');
    assert.equal(record.idempotencyKey, body.transactionId);
    assert.equal(record.fromRef, 'RENT-11');
    assert.equal(record.toRef, null);
    assert.equal(record.memo, 'rent');
    assert.equal(record.walletPublicKey, a.publicKey);
    assert.equal(record.destinationStellarAddress, b.publicKey);
    assert.ok(record.completedAt);
    const [payment] = (await operationsOf(record.stellarTxHash)).filter((op) => op.type === 'payment');
    assert.equal((payment as { amount?: string }).amount, '25.5000000');
    // The caller's memo is the transaction's.
    const landed = await horizon().transactions().transaction(record.stellarTxHash).call();
    assert.deepEqual([landed.memo_type, landed.memo], ['text', 'rent']);
    assert.equal(await balancesOf(a.publicKey).then((x) => x.USDC), sum(before.a.USDC ?? 0, -25.5));
    assert.equal(await balancesOf(b.publicKey).then((x) => x.USDC), sum(before.b.USDC ?? 0, 25.5));

    // The same submission again: the first record, nothing new on the ledger.
    const replay = await submit(alice, 'p2p/own', { ...body, sendingAssetCode: 'USDC', amount: 25.5 });
    assert.equal(replay.status, 202);
    assert.equal(replay.body.isIdempotent, true);
    assert.equal(replay.body.transactionRecordId, id);
    // The caller's own transactionId finds the record too.
    const byTransactionId = await as(alice, `/transactions/${body.transactionId}`);
    assert.equal(byTransactionId.body.transactionRecordId, id);
    const conflict = await submit(alice, 'p2p/own', { ...body, amount: 26 });
    assert.equal(conflict.status, 409);
    assert.deepEqual(
      conflict.body.errors.map((e: { field: string }) => e.field),
      ['transactionId'],
    );
    assert.equal(await balancesOf(b.publicKey).then((x) => x.USDC), sum(before.b.USDC ?? 0, 25.5));
  });

  it('a swap into a wallet without the asset’s trustline opens it and delivers what the ledger says', async () => {
    const before = await balancesOf(a.publicKey);
    assert.equal((await balancesOf(b.publicKey)).EURC, undefined);
    const registry: { assetCode: string; assetIssuer: string }[] = (await as(alice, '/assets')).body.data;
    const asset = (code: string) =>
      new Asset(code, registry.find((entry) => entry.assetCode === code)?.assetIssuer);
    const [quoted] = (
      await horizon()
        .strictSendPaths(asset('USDC'), '100', [asset('EURC')])
        .call()
    ).records;
    assert.ok(quoted);
    const id = await accepted(alice, 'swap/own', {
      transactionId: randomUUID(),
      walletId: a.id,
      destinationWalletId: b.id,
      sendingAssetCode: 'USDC',
      receivingAssetCode: 'EURC',
      amount: 100,
    });
    const record = await settled(alice, id);
    assert.equal(record.status, 'completed', JSON.stringify(record));
    assert.equal(record.type, 'swap');
    assert.equal(record.receivingAsset, 'EURC');
    assert.ok(record.receiveAmount > 85 && record.receiveAmount < 95, `received ${record.receiveAmount}`);
    assert.equal(
      record.exchangeRate,
      new BigNumber(record.receiveAmount).div(100).decimalPlaces(7).toNumber(),
    );
    assert.equal((await balancesOf(b.publicKey)).EURC, new BigNumber(record.receiveAmount).toFixed(7));
    assert.equal((await balancesOf(a.publicKey)).USDC, sum(before.USDC ?? 0, -100));
    // The trustline was opened first, by a transaction of its own; the swap's holds only the swap.
    const [swap, ...more] = await operationsOf(record.stellarTxHash);
    assert.deepEqual(more, []);
    assert.equal(swap?.type, 'path_payment_strict_send');
    // The bound set at acceptance: the path's amount then, less 1 %, rounded down to a stroop.
    const bound = new BigNumber(quoted.destination_amount).times(0.99).decimalPlaces(7, BigNumber.ROUND_DOWN);
    assert.equal(record.minReceiveAmount, bound.toNumber());
    assert.ok(new BigNumber((swap as { destination_min: string }).destination_min).gte(bound));
    // No memo from the caller: a hash memo holding the record id ties the transaction to its record.
    const landed = await horizon().transactions().transaction(record.stellarTxHash).call();
    assert.equal(landed.memo_type, 'hash');
    const memo = Buffer.from(landed.memo ?? '', 'base64');
    assert.equal(memo.subarray(0, 16).toString('hex'), id.replaceAll('-', ''));
    assert.deepEqual([...memo.subarray(16)], Array(16).fill(0));
  });

  it('a self-swap converts within one wallet', async () => {
    const id = await accepted(alice, 'swap/own', {
      transactionId: randomUUID(),
      walletId: a.id,
      destinationWalletId: a.id,
      sendingAssetCode: 'USDC',
      receivingAssetCode: 'EURC',
      amount: 10,
    });
    const record = await settled(alice, id);
    assert.equal(record.status, 'completed', JSON.stringify(record));
    assert.equal((await balancesOf(a.publicKey)).EURC, new BigNumber(record.receiveAmount).toFixed(7));
  });

  it('a three-leg multi-transfer settles as one ledger transaction', async () => {
    const before = { a: await balancesOf(a.publicKey), b: await balancesOf(b.publicKey) };
    const transfers = [
      { walletId: a.id, destinationWalletId: b.id, sendingAssetCode: 'USDC', amount: 1 },
      { walletId: a.id, destinationWalletId: b.id, sendingAssetCode: 'USDC', amount: 2.25 },
      { walletId: b.id, destinationWalletId: a.id, sendingAssetCode: 'USDC', amount: 0.5 },
    ];
    const id = await accepted(alice, 'p2p/own/multi', { transactionId: randomUUID(), transfers });
    const record = await settled(alice, id);
    assert.equal(record.status, 'completed', JSON.stringify(record));
    assert.equal(record.type, 'p2p_multi');
    assert.equal(record.sendAmount, 3.75);
    assert.deepEqual(
      record.legs.map((leg: { legIndex: number; amount: number; walletPublicKey: string }) => [
        leg.legIndex,
        leg.amount,
        leg.walletPublicKey,
      ]),
      [
        [0, 1, a.publicKey],
        [1, 2.25, a.publicKey],
        [2, 0.5, b.publicKey],
      ],
    );
    const payments = (await operationsOf(record.stellarTxHash)).filter((op) => op.type === 'payment');
    assert.deepEqual(
      payments.map((op) => (op as { amount?: string }).amount),
      ['1.0000000', '2.2500000', '0.5000000'],
    );
    assert.equal((await balancesOf(a.publicKey)).USDC, sum(before.a.USDC ?? 0, -1, -2.25, 0.5));
    assert.equal((await balancesOf(b.publicKey)).USDC, sum(before.b.USDC ?? 0, 1, 2.25, -0.5));
  });

  it('a multi-transfer with one overdrawing leg is refused whole at acceptance, leaving every balance as it was', async () => {
    // That the ledger fails such a transaction whole is ledger-payments.test.ts's; acceptance refuses it first.
    const before = { a: await balancesOf(a.publicKey), b: await balancesOf(b.publicKey) };
    const answer = await submit(alice, 'p2p/own/multi', {
      transactionId: randomUUID(),
      transfers: [
        { walletId: a.id, destinationWalletId: b.id, sendingAssetCode: 'USDC', amount: 1 },
        { walletId: b.id, destinationWalletId: a.id, sendingAssetCode: 'USDC', amount: 1_000_000 },
      ],
    });
    assert.equal(answer.status, 422, JSON.stringify(answer.body));
    assert.deepEqual(
      answer.body.errors.map((e: { field: string }) => e.field),
      ['transfers.1.amount'],
    );
    assert.deepEqual(await balancesOf(a.publicKey).then((x) => x.USDC), before.a.USDC);
    assert.deepEqual(await balancesOf(b.publicKey).then((x) => x.USDC), before.b.USDC);
  });

  it('a P2P and a swap to a beneficiary’s CRYPTO destination reach the outsider’s account', async () => {
    const outsider = await outsiderAccount(alice, ['USDC', 'EURC']);
    const beneficiary = await as(alice, '/beneficiaries', {
      method: 'POST',
      // SES's mailbox simulator: a sandbox notice goes to no address nobody verified (issue 36).
      body: {
        individual: { firstName: 'Lerato', lastName: 'Dlamini', email: 'success@simulator.amazonses.com' },
      },
    });
    assert.equal(beneficiary.status, 201);
    const destinations = `/beneficiaries/${beneficiary.body.id}/payment-destinations`;
    const [usdc, eurc] = await Promise.all(
      ['USDC', 'EURC'].map((code) =>
        as(alice, destinations, { method: 'POST', body: cryptoDestination(code, outsider.publicKey()) }),
      ),
    );
    const p2p = await accepted(alice, 'p2p/beneficiary', {
      transactionId: randomUUID(),
      walletId: a.id,
      beneficiaryId: beneficiary.body.id,
      paymentDestinationId: usdc?.body.id,
      sendingAssetCode: 'USDC',
      amount: 5,
      toRef: 'INV-2041',
      notifyEmail: true,
    });
    const swap = await accepted(alice, 'swap/beneficiary', {
      transactionId: randomUUID(),
      walletId: a.id,
      beneficiaryId: beneficiary.body.id,
      paymentDestinationId: eurc?.body.id,
      sendingAssetCode: 'USDC',
      receivingAssetCode: 'EURC',
      amount: 10,
    });
    const [paid, swapped] = await Promise.all([settled(alice, p2p), settled(alice, swap)]);
    assert.equal(paid.status, 'completed', JSON.stringify(paid));
    assert.equal(swapped.status, 'completed', JSON.stringify(swapped));
    assert.equal(paid.beneficiaryFirstName, 'Lerato');
    assert.equal(paid.beneficiaryLastName, 'Dlamini');
    assert.equal(paid.destinationStellarAddress, outsider.publicKey());
    assert.equal(paid.toRef, 'INV-2041');
    assert.equal(paid.notification.channel, 'email');
    assert.equal(paid.notification.to, 's***@simulator.amazonses.com');
    // The beneficiary is told off the request path, once the record completed (lib/notifications).
    const told = await recordWhen(alice, p2p, (record) => record.notification.status !== 'pending');
    assert.equal(told.notification.status, 'sent', JSON.stringify(told.notification));
    assert.ok(told.notification.sentAt);
    const held = await balancesOf(outsider.publicKey());
    assert.equal(held.USDC, '5.0000000');
    assert.equal(held.EURC, new BigNumber(swapped.receiveAmount).toFixed(7));

    // An exchange's muxed address (M…: the shared account and the customer's id) is paid as such.
    const muxed = new MuxedAccount(new Account(outsider.publicKey(), '0'), '4021').accountId();
    const exchange = await as(alice, destinations, {
      method: 'POST',
      body: cryptoDestination('USDC', muxed),
    });
    assert.equal(exchange.status, 201, JSON.stringify(exchange.body));
    const toExchange = await settled(
      alice,
      await accepted(alice, 'p2p/beneficiary', {
        transactionId: randomUUID(),
        walletId: a.id,
        beneficiaryId: beneficiary.body.id,
        paymentDestinationId: exchange.body.id,
        sendingAssetCode: 'USDC',
        amount: 1.5,
      }),
    );
    assert.equal(toExchange.status, 'completed', JSON.stringify(toExchange));
    assert.equal(toExchange.destinationStellarAddress, muxed);
    const [payment] = (await operationsOf(toExchange.stellarTxHash)).filter((op) => op.type === 'payment');
    assert.equal((payment as { to_muxed_id?: string }).to_muxed_id, '4021');
    assert.equal((await balancesOf(outsider.publicKey())).USDC, '6.5000000');
  });
});
