// The pending index's move to keys only (lib/db/table.ts, docs/production.md): on a table midway (both
// indexes, steps 1 and 2), the reconciler's reads of the projected index and of the keys-only one find the
// same items, whole; a record that settles leaves both. A table of this file's own in the stack's
// DynamoDB Local, shaped as such a stage's.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { resetConfig } from '../../lib/config.ts';
import { exists } from '../../lib/db/conditions.ts';
import { createIfAbsent, updateIf } from '../../lib/db/items.ts';
import { pendingKeys, transactionKeys } from '../../lib/db/keys.ts';
import { pendingAll, pendingBefore } from '../../lib/db/pending-index.ts';
import { createTableInput, indexesAtStep, LIST_INDEX_STEPS } from '../../lib/db/table.ts';
import { transactionEntity } from '../../lib/payments/repo.ts';
import { transactionAt } from '../support/list-records.ts';

describe('the pending index moving to keys only', () => {
  const tenant = { environment: 'sandbox' as const, associationId: `pending-move-${randomUUID()}` };
  const readsBefore = process.env.PENDING_INDEX_READS;
  const tableBefore = process.env.TABLE_NAME;

  beforeAll(async () => {
    const tableName = `pending-move-${randomUUID()}`;
    const client = new DynamoDBClient({ endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB });
    await client.send(
      new CreateTableCommand(createTableInput(tableName, indexesAtStep(LIST_INDEX_STEPS, 1))),
    );
    client.destroy();
    process.env.TABLE_NAME = tableName;
    resetConfig();
  });

  afterAll(() => {
    process.env.TABLE_NAME = tableBefore;
    if (readsBefore === undefined) delete process.env.PENDING_INDEX_READS;
    else process.env.PENDING_INDEX_READS = readsBefore;
    resetConfig();
  });

  /** What the reconciler's reads find of this tenant, through the index `reads` names. */
  const found = async (reads: 'ALL' | 'KEYS_ONLY') => {
    process.env.PENDING_INDEX_READS = reads;
    resetConfig();
    const mine = (items: Record<string, unknown>[]) =>
      items.filter((item) => item.associationId === tenant.associationId);
    const bound = new Date(Date.now() + 60_000).toISOString();
    return {
      before: mine(await pendingBefore('sandbox', 'transaction', bound, 100)),
      all: mine(await pendingAll('sandbox', 'transaction')),
    };
  };

  it('both indexes give the same whole items, oldest first, and neither a settled record', async () => {
    const records = [1, 2, 3].map((i) => ({
      ...transactionAt(tenant, i, ['w-1', 'w-2']),
      status: 'initiated' as const,
      createdAt: new Date(Date.now() - (10 - i) * 1000).toISOString(),
    }));
    for (const record of records)
      assert.equal((await createIfAbsent(transactionEntity, record)).outcome, 'written');
    const projected = await found('ALL');
    const keysOnly = await found('KEYS_ONLY');
    assert.equal(projected.before.length, 3);
    assert.deepEqual(keysOnly, projected);
    assert.deepEqual(
      keysOnly.before.map((item) => [item.transactionRecordId, item.sendAmount, item.status]),
      records.map((r) => [r.transactionRecordId, r.sendAmount, 'initiated']),
    );

    // The first settles: its pending keys go with the write that moves it, so neither index has it.
    const [settled] = records;
    assert.ok(settled);
    const moved = await updateIf(
      transactionKeys.record(tenant, settled.transactionRecordId),
      { set: { status: 'completed' }, remove: pendingKeys.attributes },
      exists,
    );
    assert.equal(moved.outcome, 'written');
    for (const reads of ['ALL', 'KEYS_ONLY'] as const)
      assert.deepEqual(
        (await found(reads)).before.map((item) => item.transactionRecordId),
        records.slice(1).map((r) => r.transactionRecordId),
        reads,
      );
  });
});
