// Reading transaction records (spec §4.8): one record by its transactionRecordId or by the caller's own
// transactionId, another association's exactly as a missing one; the list newest first, cursor-paged,
// filtered by status, type, a wallet (any wallet the record touches, a multi-transfer's destinations
// included) and a creation range [createdFrom, createdTo). A malformed query is a 400 naming the member.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, it } from 'vitest';
import { as, assertAnsweredAsMissing, baseUrl, type Caller, newCaller } from '../support/api.ts';
import {
  accepted,
  listed,
  type OwnWallet,
  ownWallet,
  pagesOf,
  settled,
  unopenedWallet,
} from '../support/payments.ts';

// biome-ignore lint/suspicious/noExplicitAny: records are asserted on member by member.
type TransactionRecord = any;

const idsOf = (records: TransactionRecord[]): string[] => records.map((r) => r.transactionRecordId);

describe('transaction records', () => {
  let erin: Caller;
  let x: OwnWallet;
  let y: OwnWallet;
  let z: OwnWallet;
  /** Erin's records, settled, oldest first: a P2P, a self-swap, a multi-transfer, a failed P2P (from an empty wallet), a P2P back. */
  let made: TransactionRecord[];
  /** The same, newest first: the order of the list. */
  let newest: TransactionRecord[];
  const at = (...indexes: number[]) => indexes.map((i) => made[i].transactionRecordId);

  /** The record ids GET /transactions lists for `query`, every page walked. */
  const listedIds = async (query: string) => idsOf(await listed(erin, query));

  beforeAll(async () => {
    erin = await newCaller();
    let w: Awaited<ReturnType<typeof unopenedWallet>>;
    [x, y, z, w] = await Promise.all([
      ownWallet(erin, 'USDC', 100),
      ownWallet(erin, 'USDC'),
      ownWallet(erin, 'USDC'),
      // Its account opens only after its payment is accepted (acceptance cannot check it), empty: the
      // payment fails at the ledger.
      unopenedWallet(erin),
    ]);
    const usdc = (walletId: string, destinationWalletId: string, amount: number) => ({
      walletId,
      destinationWalletId,
      sendingAssetCode: 'USDC',
      amount,
    });
    const payments: [string, Record<string, unknown>][] = [
      ['p2p/own', usdc(x.id, y.id, 1)],
      ['swap/own', { ...usdc(x.id, x.id, 1), receivingAssetCode: 'EURC' }],
      // z only receives, in the second transfer.
      ['p2p/own/multi', { transfers: [usdc(x.id, y.id, 1), usdc(y.id, z.id, 0.5)] }],
      ['p2p/own', usdc(w.id, y.id, 1000)],
      ['p2p/own', usdc(y.id, x.id, 0.25)],
    ];
    made = [];
    // One at a time, each settled before the next is made: creation order is this order, to the millisecond.
    for (const [route, body] of payments) {
      const recordId = await accepted(erin, route, { transactionId: randomUUID(), ...body });
      if (body.walletId === w.id) await w.open();
      made.push(await settled(erin, recordId));
    }
    assert.deepEqual(
      made.map((r) => r.status),
      ['completed', 'completed', 'completed', 'failed', 'completed'],
    );
    newest = [...made].reverse();
  });

  it('reads a record by its transactionRecordId and by the transactionId it was submitted with', async () => {
    for (const record of made) {
      const byRecordId = await as(erin, `/transactions/${record.transactionRecordId}`);
      assert.equal(byRecordId.status, 200);
      assert.deepEqual(byRecordId.body, record);
      const byTransactionId = await as(erin, `/transactions/${record.idempotencyKey}`);
      assert.equal(byTransactionId.status, 200);
      assert.deepEqual(byTransactionId.body, record);
    }
  });

  it('reads a record by either id in upper case, and filters by a wallet id in upper case', async () => {
    for (const record of made) {
      for (const id of [record.transactionRecordId, record.idempotencyKey]) {
        const answer = await as(erin, `/transactions/${id.toUpperCase()}`);
        assert.equal(answer.status, 200, `${id}: ${JSON.stringify(answer.body)}`);
        assert.deepEqual(answer.body, record);
      }
    }
    assert.deepEqual(await listedIds(`walletId=${x.id.toUpperCase()}`), at(4, 2, 1, 0));
  });

  it('finds by transactionId first: a transactionId that is another record’s id names its own payment', async () => {
    const gina = await newCaller();
    const [from, to] = await Promise.all([ownWallet(gina, 'USDC', 10), ownWallet(gina, 'USDC')]);
    const p2p = (transactionId: string) => ({
      transactionId,
      walletId: from.id,
      destinationWalletId: to.id,
      sendingAssetCode: 'USDC',
      amount: 1,
    });
    const first = await settled(gina, await accepted(gina, 'p2p/own', p2p(randomUUID())));
    // The second payment's transactionId is the first payment's record id.
    const second = await settled(gina, await accepted(gina, 'p2p/own', p2p(first.transactionRecordId)));
    assert.notEqual(second.transactionRecordId, first.transactionRecordId);
    assert.equal(second.idempotencyKey, first.transactionRecordId);
    const byThatValue = await as(gina, `/transactions/${first.transactionRecordId}`);
    assert.deepEqual(byThatValue.body, second);
    assert.deepEqual((await as(gina, `/transactions/${first.idempotencyKey}`)).body, first);
    assert.deepEqual((await as(gina, `/transactions/${second.transactionRecordId}`)).body, second);
  });

  it('carries legs on multi-transfer records only', async () => {
    for (const record of made)
      assert.equal('legs' in record, record.type === 'p2p_multi', JSON.stringify(record));
    assert.equal(made[2].legs.length, 2);
  });

  it('shows a failed record’s figures as what was asked and nothing received', async () => {
    const failed = made[3];
    assert.equal(failed.status, 'failed');
    assert.equal(failed.sendAmount, 1000);
    assert.equal(failed.originalSendAmount, 1000);
    assert.equal(failed.receiveAmount, null);
    assert.equal(failed.exchangeRate, null);
    assert.equal(failed.completedAt, null);
    // A completed P2P received what it sent, at 1.
    assert.equal(made[0].receiveAmount, 1);
    assert.equal(made[0].exchangeRate, 1);
  });

  it('writes every amount in plain decimals: 0.0000005, never 5e-7, in records and lists alike', async () => {
    const hana = await newCaller();
    const [from, to] = await Promise.all([ownWallet(hana, 'USDC', 1), ownWallet(hana, 'USDC')]);
    const usdc = (amount: number) => ({
      walletId: from.id,
      destinationWalletId: to.id,
      sendingAssetCode: 'USDC',
      amount,
    });
    const p2p = await settled(
      hana,
      await accepted(hana, 'p2p/own', { transactionId: randomUUID(), ...usdc(0.0000005) }),
    );
    const multi = await settled(
      hana,
      await accepted(hana, 'p2p/own/multi', {
        transactionId: randomUUID(),
        transfers: [usdc(0.0000001), usdc(0.0000002)],
      }),
    );
    assert.deepEqual([p2p.status, multi.status], ['completed', 'completed']);
    /** The answer's text, as the caller's JSON parser meets it. */
    const text = async (path: string) => {
      const response = await fetch(`${baseUrl()}${path}`, {
        headers: { 'x-service-auth': hana.tenant.apiKey, authorization: `Bearer ${hana.token}` },
      });
      assert.equal(response.status, 200);
      return response.text();
    };
    const single = await text(`/transactions/${p2p.transactionRecordId}`);
    for (const member of ['sendAmount', 'originalSendAmount', 'receiveAmount'])
      assert.ok(single.includes(`"${member}":0.0000005`), `${member} in ${single}`);
    const legs = await text(`/transactions/${multi.transactionRecordId}`);
    assert.ok(legs.includes('"sendAmount":0.0000003'), legs);
    assert.ok(legs.includes('"amount":0.0000001') && legs.includes('"amount":0.0000002'), legs);
    const list = await text('/transactions');
    // No number anywhere in exponent form (strings, which hold hex ids and hashes, set aside).
    for (const answer of [single, legs, list])
      assert.doesNotMatch(answer.replace(/"(?:[^"\\]|\\.)*"/g, '""'), /\d[eE][-+]?\d/, answer);
  });

  it('answers another association’s record exactly as a missing one, and a malformed id with 400', async () => {
    const fred = await newCaller();
    const record = made[0];
    const unknown = randomUUID();
    const missing = await as(fred, `/transactions/${unknown}`);
    for (const id of [record.transactionRecordId, record.idempotencyKey]) {
      assertAnsweredAsMissing(await as(fred, `/transactions/${id}`), id, missing, unknown);
    }
    assert.deepEqual(await listed(fred), []);

    const malformed = await as(erin, '/transactions/not-a-uuid');
    assert.equal(malformed.status, 400);
    assert.equal(malformed.headers.get('content-type'), 'application/problem+json');
    assert.deepEqual(
      malformed.body.errors.map((e: { field: string }) => e.field),
      ['transactionId'],
    );
  });

  it('lists newest first, each record as it is read alone but for its timeline', async () => {
    const records = await listed(erin);
    assert.deepEqual(
      records,
      newest.map(({ timeline, ...record }) => record),
    );
  });

  it('pages with the cursor: limit=2 walks every record once', async () => {
    const pages = await pagesOf(erin, 'limit=2');
    assert.deepEqual(
      pages.map((page) => page.length),
      [2, 2, 1],
    );
    assert.deepEqual(idsOf(pages.flat()), idsOf(newest));
  });

  it('filters by status and type, alone, together and across pages', async () => {
    assert.deepEqual(await listedIds('status=failed'), at(3));
    assert.deepEqual(await listedIds('status=completed'), at(4, 2, 1, 0));
    assert.deepEqual(await listedIds('status=initiated'), []);
    assert.deepEqual(await listedIds('type=swap'), at(1));
    assert.deepEqual(await listedIds('type=p2p_multi'), at(2));
    assert.deepEqual(await listedIds('type=p2p'), at(4, 3, 0));
    assert.deepEqual(await listedIds('type=p2p&status=completed&limit=1'), at(4, 0));
  });

  it('accepts every status and type the contract names: one no record holds is an empty page', async () => {
    for (const query of ['status=refund_completed', 'type=offramp', 'type=onramp']) {
      const answer = await as(erin, `/transactions?${query}`);
      assert.equal(answer.status, 200, `${query}: ${JSON.stringify(answer.body)}`);
      assert.deepEqual(answer.body, { data: [], pagination: { nextCursor: null, hasMore: false } });
    }
  });

  it('filters by wallet: every record the wallet takes part in, a multi-transfer’s destination included', async () => {
    assert.deepEqual(await listedIds(`walletId=${z.id}`), at(2));
    assert.deepEqual(await listedIds(`walletId=${z.id}&limit=1`), at(2));
    assert.deepEqual(await listedIds(`walletId=${y.id}`), at(4, 3, 2, 0));
    assert.deepEqual(await listedIds(`walletId=${x.id}`), at(4, 2, 1, 0));
    assert.deepEqual(await listedIds(`walletId=${randomUUID()}`), []);
  });

  it('filters by creation time: createdFrom inclusive, createdTo exclusive', async () => {
    const middle = made[2].createdAt;
    assert.deepEqual(await listedIds(`createdFrom=${middle}`), at(4, 3, 2));
    assert.deepEqual(await listedIds(`createdTo=${middle}`), at(1, 0));
    assert.deepEqual(
      await listedIds(`createdFrom=${made[1].createdAt}&createdTo=${made[3].createdAt}`),
      at(2, 1),
    );
    // The same instant written with an offset is the same bound.
    const shifted = new Date(Date.parse(middle) + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    assert.deepEqual(await listedIds(`createdFrom=${encodeURIComponent(shifted)}`), at(4, 3, 2));
  });

  it('refuses a malformed query with 400 naming the member', async () => {
    const middle = made[2].createdAt;
    const later = made[3].createdAt;
    const cases: [string, string][] = [
      ['status=done', 'status'],
      ['type=refund', 'type'],
      ['walletId=x', 'walletId'],
      ['createdFrom=yesterday', 'createdFrom'],
      ['createdTo=2026-13-01T00:00:00Z', 'createdTo'],
      [`createdFrom=${middle}&createdTo=${middle}`, 'createdTo'],
      [`createdFrom=${later}&createdTo=${middle}`, 'createdTo'],
      ['sort=asc', 'sort'],
      ['limit=0', 'limit'],
      ['cursor=garbage', 'cursor'],
    ];
    for (const [query, field] of cases) {
      const answer = await as(erin, `/transactions?${query}`);
      assert.equal(answer.status, 400, `${query}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.headers.get('content-type'), 'application/problem+json');
      assert.deepEqual(
        answer.body.errors.map((e: { field: string }) => e.field),
        [field],
        query,
      );
    }
  });
});
