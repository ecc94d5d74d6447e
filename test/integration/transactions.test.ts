// Reading transaction records (spec §4.8): one record by its transactionRecordId or by the caller's own
// transactionId, another association's exactly as a missing one; the list newest first, cursor-paged,
// filtered by status, type, a wallet (any wallet the record touches, a multi-transfer's destinations
// included) and a creation range [createdFrom, createdTo). A malformed query is a 400 naming the member.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, it } from 'vitest';
import { as, type Caller, newCaller, problemShape } from '../support/api.ts';
import { accepted, listed, type OwnWallet, ownWallet, pagesOf, settled } from '../support/payments.ts';

// biome-ignore lint/suspicious/noExplicitAny: records are asserted on member by member.
type TransactionRecord = any;

const idsOf = (records: TransactionRecord[]): string[] => records.map((r) => r.transactionRecordId);

describe('transaction records', () => {
  let erin: Caller;
  let x: OwnWallet;
  let y: OwnWallet;
  let z: OwnWallet;
  /** Erin's records, settled, oldest first: a P2P, a self-swap, a multi-transfer, a failed P2P, a P2P back. */
  let made: TransactionRecord[];
  /** The same, newest first: the order of the list. */
  let newest: TransactionRecord[];
  const at = (...indexes: number[]) => indexes.map((i) => made[i].transactionRecordId);

  /** The record ids GET /transactions lists for `query`, every page walked. */
  const listedIds = async (query: string) => idsOf(await listed(erin, query));

  beforeAll(async () => {
    erin = await newCaller();
    [x, y, z] = await Promise.all([
      ownWallet(erin, 'USDC', 100),
      ownWallet(erin, 'USDC'),
      ownWallet(erin, 'USDC'),
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
      ['p2p/own', usdc(x.id, y.id, 1000)],
      ['p2p/own', usdc(y.id, x.id, 0.25)],
    ];
    made = [];
    // One at a time, each settled before the next is made: creation order is this order, to the millisecond.
    for (const [route, body] of payments)
      made.push(await settled(erin, await accepted(erin, route, { transactionId: randomUUID(), ...body })));
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

  it('answers another association’s record exactly as a missing one, and a malformed id with 400', async () => {
    const fred = await newCaller();
    const record = made[0];
    const unknown = randomUUID();
    const missing = await as(fred, `/transactions/${unknown}`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('content-type'), 'application/problem+json');
    for (const id of [record.transactionRecordId, record.idempotencyKey]) {
      const theirs = await as(fred, `/transactions/${id}`);
      assert.equal(theirs.status, 404, JSON.stringify(theirs.body));
      assert.equal(theirs.headers.get('content-type'), 'application/problem+json');
      assert.deepEqual(problemShape(theirs.body, id), problemShape(missing.body, unknown));
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

  it('lists newest first', async () => {
    const records = await listed(erin);
    assert.deepEqual(records, newest);
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

  it('filters by wallet: every record the wallet takes part in, a multi-transfer’s destination included', async () => {
    assert.deepEqual(await listedIds(`walletId=${z.id}`), at(2));
    assert.deepEqual(await listedIds(`walletId=${z.id}&limit=1`), at(2));
    assert.deepEqual(await listedIds(`walletId=${y.id}`), at(4, 3, 2, 0));
    assert.deepEqual(await listedIds(`walletId=${x.id}`), idsOf(newest));
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
