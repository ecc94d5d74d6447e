// The pending index is sparse: only records whose outbox work is owed carry its keys (lib/db/keys.ts
// pendingKeys), so the reconciler's query reads stuck records and nothing else.
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { itemOf, recordOf } from '../../lib/db/entity.ts';
import { transactionEntity } from '../../lib/payments/repo.ts';
import { walletEntity } from '../../lib/wallets/repo.ts';

const owned = { environment: 'sandbox' as const, associationId: 'a1', createdAt: '2026-01-01T00:00:00.000Z' };
const pendingOf = (item: Record<string, unknown>) => [item.pendingPk, item.pendingSk];

describe('pending index keys', () => {
  it('a wallet written pending activation carries them, by its creation; an active one does not', () => {
    const pending = itemOf(walletEntity, { ...owned, walletId: 'w1', activationStatus: 'pending' } as never);
    assert.deepEqual(pendingOf(pending), ['PENDING#sandbox#wallet', owned.createdAt]);
    const active = itemOf(walletEntity, { ...owned, walletId: 'w1', activationStatus: 'active' } as never);
    assert.deepEqual(pendingOf(active), [undefined, undefined]);
  });

  it('a transaction written initiated carries them; one written completed does not', () => {
    const record = { ...owned, transactionRecordId: 't1' };
    const initiated = itemOf(transactionEntity, { ...record, status: 'initiated' } as never);
    assert.deepEqual(pendingOf(initiated), ['PENDING#sandbox#transaction', owned.createdAt]);
    const completed = itemOf(transactionEntity, { ...record, status: 'completed' } as never);
    assert.deepEqual(pendingOf(completed), [undefined, undefined]);
  });

  it('are table attributes: never part of a record read back', () => {
    const item = itemOf(transactionEntity, {
      ...owned,
      transactionRecordId: 't1',
      status: 'initiated',
    } as never);
    assert.deepEqual(
      Object.keys(recordOf(item)).filter((name) => name.startsWith('pending')),
      [],
    );
  });
});
