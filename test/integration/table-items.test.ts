// The shared table operations against DynamoDB Local: conditional writes answer with what the item
// holds now instead of throwing, and a transaction commits all of its writes or none.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'vitest';
import { absent, holds } from '../../lib/db/conditions.ts';
import { entity } from '../../lib/db/entity.ts';
import { createIfAbsent, getRecord, readAllPages, transact, updateIf } from '../../lib/db/items.ts';

interface Probe {
  id: string;
  state: string;
  n: number;
}

const probeEntity = entity<Probe>({ type: 'probe', keyOf: (p) => ({ pk: `PROBE#${p.id}`, sk: 'PROBE' }) });
const keyOf = (id: string) => probeEntity.keyOf({ id } as Probe);

describe('table operations', () => {
  it('create-if-absent writes once and then answers with the existing record', async () => {
    const id = randomUUID();
    assert.equal((await createIfAbsent(probeEntity, { id, state: 'a', n: 1 })).outcome, 'written');
    assert.deepEqual(await createIfAbsent(probeEntity, { id, state: 'b', n: 2 }), {
      outcome: 'conditionFailed',
      current: { id, state: 'a', n: 1 },
    });
    assert.deepEqual(await getRecord(keyOf(id)), { id, state: 'a', n: 1 });
  });

  it('update-if moves from the expected state, and otherwise tells the current state or a missing item', async () => {
    const id = randomUUID();
    await createIfAbsent(probeEntity, { id, state: 'initiated', n: 0 });
    const moved = await updateIf<Probe>(
      keyOf(id),
      { set: { state: 'completed' }, add: { n: 1 } },
      holds({ state: 'initiated' }),
    );
    assert.deepEqual(moved, { outcome: 'written', record: { id, state: 'completed', n: 1 } });
    const again = await updateIf<Probe>(
      keyOf(id),
      { set: { state: 'failed' } },
      holds({ state: 'initiated' }),
    );
    assert.deepEqual(again, { outcome: 'conditionFailed', current: { id, state: 'completed', n: 1 } });
    assert.deepEqual(
      await updateIf(keyOf(randomUUID()), { set: { state: 'x' } }, holds({ state: 'initiated' })),
      {
        outcome: 'missing',
      },
    );
  });

  it('a transaction writes all or nothing, and names the write whose condition failed', async () => {
    const [first, second] = [randomUUID(), randomUUID()];
    await createIfAbsent(probeEntity, { id: second, state: 'taken', n: 0 });
    const outcome = await transact([
      { put: { entity: probeEntity as never, record: { id: first, state: 'new', n: 0 }, condition: absent } },
      {
        put: { entity: probeEntity as never, record: { id: second, state: 'new', n: 0 }, condition: absent },
      },
    ]);
    assert.equal(outcome.outcome, 'cancelled');
    if (outcome.outcome === 'cancelled') {
      assert.deepEqual(
        outcome.reasons.map((r) => r.code),
        ['None', 'ConditionalCheckFailed'],
      );
      assert.deepEqual(outcome.reasons[1]?.current, { id: second, state: 'taken', n: 0 });
    }
    assert.equal(await getRecord(keyOf(first)), undefined);
    const third = randomUUID();
    assert.deepEqual(
      await transact([
        {
          put: { entity: probeEntity as never, record: { id: third, state: 'new', n: 0 }, condition: absent },
        },
      ]),
      { outcome: 'written' },
    );
    assert.deepEqual(
      await readAllPages({
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `PROBE#${third}` },
      }),
      [{ id: third, state: 'new', n: 0 }],
    );
  });
});
