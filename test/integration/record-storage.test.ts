// A transaction record's item holds what the rest of the record does not imply (lib/payments/repo.ts
// transactionEntity): no null member, no copy of another. Against DynamoDB Local: a record written so reads
// back whole; a move that sets a member to null or to its implied value removes it; a record written the old
// way, nulls and copies included, reads and moves the same. The items are written under a type of their
// own (test/support/list-records.ts `seeded`), so no outbox row or worker acts on them meanwhile.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, it } from 'vitest';
import { db, tableName } from '../../lib/db/client.ts';
import { itemOf } from '../../lib/db/entity.ts';
import { transactionKeys } from '../../lib/db/keys.ts';
import { applyEvent } from '../../lib/payments/lifecycle/apply.ts';
import { intentIdOf } from '../../lib/payments/record-ids.ts';
import { findTransaction, type TransactionRecord, transactionEntity } from '../../lib/payments/repo.ts';
import { toTransactionResource } from '../../lib/payments/responses.ts';
import type { Tenant } from '../../lib/tenant.ts';
import { seeded } from '../support/list-records.ts';

const tenant: Tenant = { environment: 'sandbox', associationId: randomUUID() };
const USDC = { code: 'USDC', issuer: `G${'A'.repeat(55)}` };

/** An accepted P2P between own wallets, as the API writes it (lib/payments/hand-off.ts). */
function initiated(): TransactionRecord {
  const id = randomUUID();
  const [walletId, destinationWalletId] = [randomUUID(), randomUUID()];
  const now = new Date().toISOString();
  return {
    transactionRecordId: id,
    ...tenant,
    status: 'initiated',
    transactionType: 'p2p',
    operation: 'payP2pOwn',
    requestFingerprint: 'f'.repeat(64),
    idempotencyKey: randomUUID(),
    intentId: intentIdOf(id),
    sendAmount: '12.5',
    originalSendAmount: '12.5',
    receiveAmount: null,
    exchangeRate: null,
    fee: '0',
    sendingAsset: USDC,
    receivingAsset: USDC,
    slippage: null,
    minReceiveAmount: null,
    walletId,
    walletPublicKey: `G${'C'.repeat(55)}`,
    destinationWalletId,
    destinationStellarAddress: `G${'D'.repeat(55)}`,
    beneficiaryId: null,
    beneficiaryFirstName: null,
    beneficiaryLastName: null,
    paymentDestinationId: null,
    fromRef: null,
    toRef: null,
    memo: 'rent, december',
    notify: null,
    legs: null,
    walletIds: [walletId, destinationWalletId],
    stellarTxHash: null,
    errorCode: null,
    failureReason: null,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
  };
}

const stored = async (record: TransactionRecord) =>
  (
    await db.send(
      new GetCommand({
        TableName: tableName(),
        Key: transactionKeys.record(tenant, record.transactionRecordId),
        ConsistentRead: true,
      }),
    )
  ).Item as Record<string, unknown>;

const read = async (record: TransactionRecord) =>
  (await findTransaction(tenant, record.transactionRecordId, { consistent: true })) as TransactionRecord;

/** The record as the API answers it, on the wire. */
const wire = (record: TransactionRecord) => JSON.parse(JSON.stringify(toTransactionResource(record)));

const IMPLIED = [
  'receiveAmount',
  'beneficiaryId',
  'notify',
  'legs',
  'completedAt',
  'originalSendAmount',
  'receivingAsset',
  'intentId',
  'operation',
  'walletIds',
];

describe('a transaction record as its item holds it', () => {
  it('is written without its null members and copies, and read back whole', async () => {
    const record = initiated();
    await db.send(
      new PutCommand({ TableName: tableName(), Item: itemOf(seeded(transactionEntity), record) }),
    );
    const item = await stored(record);
    assert.deepEqual(
      IMPLIED.filter((name) => name in item),
      [],
    );
    assert.equal(item.memo, record.memo);
    // A payment's state is its status (lifecycle/payment.ts): the record read says it.
    assert.deepEqual(await read(record), { ...record, state: 'initiated' });
  });

  it('a move removes what it sets to null or to its implied value, and the record reads as it moved', async () => {
    const record = initiated();
    await db.send(
      new PutCommand({ TableName: tableName(), Item: itemOf(seeded(transactionEntity), record) }),
    );
    const moved = await applyEvent(
      tenant,
      await read(record),
      {
        type: 'ledger_refused',
        facts: { stellarTxHash: null, errorCode: 'LEDGER_OP_UNDERFUNDED', failureReason: 'op_underfunded' },
        reason: 'op_underfunded',
        source: 'ledger-submitter',
      },
      new Date(),
    );
    assert.equal(moved.outcome, 'moved');
    const item = await stored(record);
    assert.equal(item.status, 'failed');
    assert.equal(item.errorCode, 'LEDGER_OP_UNDERFUNDED');
    assert.deepEqual(
      ['stellarTxHash', 'state', ...IMPLIED].filter((name) => name in item),
      [],
    );
    const after = await read(record);
    assert.deepEqual(moved.outcome === 'moved' && moved.record, after);
    assert.deepEqual(wire(after), {
      ...wire(record),
      status: 'failed',
      errorCode: 'LEDGER_OP_UNDERFUNDED',
      failureReason: 'op_underfunded',
      updatedAt: after.updatedAt,
    });
  });

  it('a record written the old way, with its nulls and copies, reads and moves the same', async () => {
    const record = initiated();
    // As the entity wrote every member before (lib/db/entity.ts itemOf spread the whole record).
    const { pk, sk } = transactionKeys.record(tenant, record.transactionRecordId);
    await db.send(
      new PutCommand({ TableName: tableName(), Item: { pk, sk, type: 'seeded-transaction', ...record } }),
    );
    assert.equal((await stored(record)).beneficiaryId, null);
    const before = await read(record);
    assert.deepEqual(before, { ...record, state: 'initiated' });
    const moved = await applyEvent(
      tenant,
      before,
      {
        type: 'ledger_landed',
        facts: { stellarTxHash: 'a'.repeat(64), receiveAmount: '12.5', exchangeRate: '1' },
        source: 'ledger-submitter',
      },
      new Date(),
    );
    assert.equal(moved.outcome, 'moved');
    const after = await read(record);
    assert.deepEqual(wire(after), {
      ...wire(record),
      status: 'completed',
      receiveAmount: 12.5,
      exchangeRate: 1,
      stellarTxHash: 'a'.repeat(64),
      updatedAt: after.updatedAt,
      completedAt: after.completedAt,
    });
    assert.equal(after.state, 'completed');
    assert.equal(after.version, 1);
  });
});
