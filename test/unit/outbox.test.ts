// The outbox's table of rows (lib/outbox.ts): which changes ask for which messages.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'vitest';
import { outboxItemTypes, outboxMessages, outboxQueues } from '../../lib/outbox.ts';
import { paymentMessage } from '../../lib/payments/message.ts';
import { transactionEntity } from '../../lib/payments/repo.ts';
import { queues } from '../../lib/queues.ts';
import { activationMessage } from '../../lib/wallets/activation-message.ts';
import { walletEntity } from '../../lib/wallets/repo.ts';

const walletItem = (activationStatus: string) => ({
  pk: 'T#sandbox#assoc-1',
  sk: 'WALLET#w',
  type: walletEntity.type,
  walletId: randomUUID(),
  environment: 'sandbox',
  associationId: 'assoc-1',
  activationStatus,
  createdAt: '2026-01-02T03:04:05.678Z',
});

describe('outbox rows', () => {
  it('a wallet inserted pending asks for one activation, in the message the worker parses', () => {
    const wallet = walletItem('pending');
    const messages = outboxMessages({ kind: 'INSERT', newImage: wallet });
    assert.equal(messages.length, 1);
    assert.equal(messages[0]?.queue, 'wallet-activations');
    assert.deepEqual(activationMessage.parse(messages[0]?.message), {
      environment: 'sandbox',
      associationId: 'assoc-1',
      walletId: wallet.walletId,
      requestedAt: wallet.createdAt,
    });
  });

  it('a transaction record inserted initiated asks for its execution, and nothing after that', () => {
    const record = {
      pk: 'T#sandbox#assoc-1',
      sk: 'TXN#t',
      type: transactionEntity.type,
      transactionRecordId: randomUUID(),
      environment: 'sandbox',
      associationId: 'assoc-1',
      status: 'initiated',
      createdAt: '2026-01-02T03:04:05.678Z',
    };
    const messages = outboxMessages({ kind: 'INSERT', newImage: record });
    assert.deepEqual(
      messages.map((m) => m.queue),
      ['ledger-submissions', 'webhook-events'],
    );
    assert.deepEqual(paymentMessage.parse(messages[0]?.message), {
      kind: 'payment',
      environment: 'sandbox',
      associationId: 'assoc-1',
      transactionRecordId: record.transactionRecordId,
      requestedAt: record.createdAt,
      attempt: 1,
    });
    const completed = { ...record, status: 'completed' };
    const queuesOf = (change: Parameters<typeof outboxMessages>[0]) =>
      outboxMessages(change).map((m) => m.queue);
    // After that, only events: a completed record asks for no second execution.
    assert.deepEqual(queuesOf({ kind: 'MODIFY', oldImage: record, newImage: completed }), ['webhook-events']);
    assert.deepEqual(
      queuesOf({ kind: 'MODIFY', oldImage: completed, newImage: { ...completed, memo: 'x' } }),
      [],
    );
  });

  it('asks for nothing on a modify, a removal, an insert not pending, or another item type', () => {
    const pending = walletItem('pending');
    const active = walletItem('active');
    assert.deepEqual(outboxMessages({ kind: 'MODIFY', oldImage: pending, newImage: active }), []);
    assert.deepEqual(outboxMessages({ kind: 'MODIFY', oldImage: active, newImage: pending }), []);
    assert.deepEqual(outboxMessages({ kind: 'REMOVE', oldImage: pending }), []);
    assert.deepEqual(outboxMessages({ kind: 'INSERT', newImage: active }), []);
    assert.deepEqual(outboxMessages({ kind: 'INSERT', newImage: { ...pending, type: 'beneficiary' } }), []);
    assert.deepEqual(outboxMessages({ kind: 'INSERT', newImage: { ...pending, type: undefined } }), []);
  });

  it('names only item types and queues that exist', () => {
    assert.deepEqual(outboxItemTypes, [
      'wallet',
      'transaction',
      'paymentDestination',
      'customer',
      'webhookDelivery',
    ]);
    const known = new Set(queues.map((queue) => queue.name));
    for (const queue of outboxQueues) assert.ok(known.has(queue), queue);
  });
});
