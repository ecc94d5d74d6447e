// Webhook workers under faults (issue #11 §5), with the real components: a KYC decision written to the
// table makes its event through the outbox (the table's stream, read by the local stream poller, and the
// router) onto a webhook-events queue; the webhook-dispatcher runs in this process on the SQS records it
// receives and writes the deliveries, whose inserts put their messages on a webhook-deliveries queue;
// the webhook-deliverer runs in this process on those, POSTing to receivers on loopback. Each case breaks
// one step (the dispatcher given the same event again, the deliverer dying between a POST and recording
// it, the same delivery message twice at once, a receiver that never answers 2xx, a slow receiver in a
// batch) and counts what the receivers got: each event at least once, never lost, and a second copy
// only where an attempt was made and not recorded. One more case runs the registration service here:
// a registration or deactivation whose transaction DynamoDB cancels for a conflict on the tenant's count.
//
// Isolated from the stack's own workers: the items live in a table of this file's own (useOwnTable),
// whose stream only this file's poller reads, routing into queues of this file's own.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  ChangeMessageVisibilityBatchCommand,
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, beforeEach, describe, it } from 'vitest';
import { resetConfig } from '../../lib/config.ts';
import type { Tenant } from '../../lib/tenant.ts';
import type { DeliveryAttempt, DeliveryRecord } from '../../lib/webhooks/repo.ts';
import { useOwnTable } from '../../local/stack.ts';
import { type CapturedLogs, captureLogs } from '../support/logs.ts';
import { type OwnOutbox, receiveRecords, startOwnOutbox } from '../support/own-outbox.ts';
import {
  type ReceivedDelivery,
  type Receiver,
  receivedBy,
  startReceiver,
} from '../support/webhook-receiver.ts';
import { assertSignedBoth } from '../support/webhook-signatures.ts';

type Handler = (event: { Records: SQSRecord[] }) => Promise<unknown>;
type Repo = typeof import('../../lib/webhooks/repo.ts');
type Delivery = typeof import('../../lib/webhooks/delivery.ts');
type Schedule = typeof import('../../lib/webhooks/schedule.ts');
type TenantShare = typeof import('../../lib/webhooks/tenant-share.ts');

interface Registration {
  webhookId: string;
  secret: string;
  receiver: Receiver;
}

describe('webhook workers under faults', () => {
  let tenant: Tenant;
  let sqs: SQSClient;
  let eventsQueue: string;
  let deliveriesQueue: string;
  let sinkQueue: string;
  let outbox: OwnOutbox;
  let dispatch: Handler;
  let deliver: Handler;
  let repo: Repo;
  let delivery: Delivery;
  let schedule: Schedule;
  let tenantShare: TenantShare;
  let db: typeof import('../../lib/db/client.ts').db;
  const receivers: Receiver[] = [];
  let logs: CapturedLogs | undefined;

  beforeAll(async () => {
    // Before this process first reads its table: the modules read its name once.
    const tableName = await useOwnTable('test-webhook-faults');
    sqs = new SQSClient({ useQueueUrlAsEndpoint: false });
    const queue = async (purpose: string) => {
      const { QueueUrl } = await sqs.send(
        new CreateQueueCommand({ QueueName: `test-webhook-faults-${purpose}-${randomUUID()}` }),
      );
      assert.ok(QueueUrl);
      return QueueUrl;
    };
    [eventsQueue, deliveriesQueue, sinkQueue] = await Promise.all([
      queue('events'),
      queue('deliveries'),
      queue('sink'),
    ]);
    process.env.QUEUE_URL_WEBHOOK_EVENTS = eventsQueue;
    process.env.QUEUE_URL_WEBHOOK_DELIVERIES = deliveriesQueue;
    // What else the router sends (nothing, for the items written here) goes nowhere a worker reads.
    process.env.QUEUE_URL_WALLET_ACTIVATIONS = sinkQueue;
    process.env.QUEUE_URL_LEDGER_SUBMISSIONS = sinkQueue;
    resetConfig();

    repo = await import('../../lib/webhooks/repo.ts');
    delivery = await import('../../lib/webhooks/delivery.ts');
    schedule = await import('../../lib/webhooks/schedule.ts');
    tenantShare = await import('../../lib/webhooks/tenant-share.ts');
    ({ db } = await import('../../lib/db/client.ts'));
    const { lambdaContext } = await import('../../local/lambda-event.ts');
    const dispatcher = await import('../../functions/workers/webhook-dispatcher.ts');
    const deliverer = await import('../../functions/workers/webhook-deliverer.ts');
    dispatch = (event) => dispatcher.handler(event as never, lambdaContext('webhook-dispatcher', 10_000));
    deliver = (event) => deliverer.handler(event as never, lambdaContext('webhook-deliverer', 15_000));

    // The outbox of this file's table, as the stack wires its own (local/stack.ts).
    outbox = await startOwnOutbox(tableName, 'test-webhook-faults-outbox');
  });

  // Each case a tenant of its own: an event fans out to every registration of its tenant.
  beforeEach(() => {
    tenant = { environment: 'sandbox', associationId: `webhook-faults-${randomUUID()}` };
  });

  afterEach(() => {
    logs?.restore();
    logs = undefined;
    process.env.QUEUE_URL_WEBHOOK_DELIVERIES = deliveriesQueue;
  });

  /** The worker's re-queued retries go to the sink, out of the later cases' way. */
  const retriesToSink = () => {
    process.env.QUEUE_URL_WEBHOOK_DELIVERIES = sinkQueue;
  };

  afterAll(async () => {
    await outbox?.stop();
    for (const url of [eventsQueue, deliveriesQueue, sinkQueue])
      if (url) await sqs.send(new DeleteQueueCommand({ QueueUrl: url }));
    sqs?.destroy();
    await Promise.all(receivers.map((r) => r.close()));
  });

  // ── the queues, read by the test ───────────────────────────────────────────────────────────────

  const receive = (queueUrl: string, waitSeconds: number) => receiveRecords(sqs, queueUrl, waitSeconds);

  /** Messages from the queue until `count` have come: all it received, more if more came at once. */
  const atLeast = async (queueUrl: string, count: number): Promise<SQSRecord[]> => {
    const records: SQSRecord[] = [];
    const deadline = Date.now() + 15_000;
    while (records.length < count) {
      assert.ok(Date.now() < deadline, `${records.length} of ${count} messages in time`);
      records.push(...(await receive(queueUrl, 1)));
    }
    return records;
  };

  /**
   * Messages in the queue not received yet, delayed ones included (a deferral's): fauxqs counts them
   * exactly, not approximately as SQS does.
   */
  const waiting = async (queueUrl: string): Promise<number> => {
    const { Attributes = {} } = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: queueUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesDelayed'],
      }),
    );
    return (
      Number(Attributes.ApproximateNumberOfMessages) + Number(Attributes.ApproximateNumberOfMessagesDelayed)
    );
  };

  /**
   * `received` and whatever else the queue holds once every message the steps so far could cause has been
   * sent: exactly `count` in all. The workers' own sends end before they return; the outbox's, once it has
   * handled every change written so far (its marker), not after a quiet window that a slow poll outlasts.
   */
  const noMoreThan = async (queueUrl: string, count: number, received: SQSRecord[]): Promise<SQSRecord[]> => {
    await outbox.settled();
    assert.equal(received.length + (await waiting(queueUrl)), count, `no more than ${count} messages`);
    return received;
  };

  /** Exactly `count` messages from the queue: counts them once all are sent, then receives them. */
  const exactly = async (queueUrl: string, count: number): Promise<SQSRecord[]> => {
    await noMoreThan(queueUrl, count, []);
    const records = count === 0 ? [] : await atLeast(queueUrl, count);
    assert.equal(records.length, count);
    return records;
  };

  /** Handled messages deleted, as the event source does with those a batch did not report. */
  const remove = async (queueUrl: string, records: SQSRecord[]) => {
    if (records.length === 0) return;
    await sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: records.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
      }),
    );
  };

  // ── registrations, events and deliveries ───────────────────────────────────────────────────────

  /** Registrations of the tenant for wallet.verified, each to a receiver of its own. */
  const registrations = async (count: number): Promise<Registration[]> => {
    const { createWebhook } = await import('../../lib/webhooks/service.ts');
    return Promise.all(
      Array.from({ length: count }, async () => {
        const receiver = await startReceiver();
        receivers.push(receiver);
        const created = await createWebhook(
          tenant,
          { url: receiver.url, events: ['wallet.verified'] },
          new Date(),
        );
        return { webhookId: created.id, secret: created.secret, receiver };
      }),
    );
  };

  /**
   * `count` wallets' KYC reviews decided Verified: their wallet.verified events' messages as they come
   * (at least `count`; fannedOutEvents checks there are no more).
   */
  const walletsVerified = async (count: number): Promise<SQSRecord[]> => {
    const { recordWallet } = await import('../support/wallet-records.ts');
    const { transitionStatus } = await import('../../lib/wallets/repo.ts');
    for (let i = 0; i < count; i++) {
      // Inserted active (no activation asked for), Pending KYC, then decided.
      const wallet = await recordWallet(tenant, {
        ownAccount: false,
        status: 'Pending',
        activationStatus: 'active',
      });
      const moved = await transitionStatus(tenant, wallet.walletId, 'Pending', 'Verified', new Date());
      assert.equal(moved.outcome, 'written');
    }
    const events: SQSRecord[] = [];
    const deadline = Date.now() + 15_000;
    while (events.length < count) {
      assert.ok(Date.now() < deadline, `${events.length} of ${count} events in time`);
      events.push(...(await ownEvents(await receive(eventsQueue, 1), events)));
    }
    for (const event of events) assert.equal(JSON.parse(event.body).type, 'wallet.verified');
    return events;
  };

  /**
   * The case's own events among `records`, each once: the outbox is at least once (a change read twice is
   * sent twice, under its one eventId, which receivers dedupe on), and an earlier case's late copy names
   * another tenant. Those are deleted, not counted; `seen` are the case's events already taken.
   */
  const ownEvents = async (records: SQSRecord[], seen: SQSRecord[] = []): Promise<SQSRecord[]> => {
    const ids = new Set(seen.map((r) => JSON.parse(r.body).eventId));
    const own: SQSRecord[] = [];
    const others: SQSRecord[] = [];
    for (const record of records) {
      const event = JSON.parse(record.body) as { eventId: string; associationId: string };
      if (event.associationId !== tenant.associationId || ids.has(event.eventId)) others.push(record);
      else {
        ids.add(event.eventId);
        own.push(record);
      }
    }
    await remove(eventsQueue, others);
    return own;
  };

  /**
   * `received` and every other event of the case the queue holds once the outbox has handled every change
   * so far: exactly `count` distinct events (copies of one event and other cases' leftovers set aside).
   */
  const noMoreEventsThan = async (count: number, received: SQSRecord[]): Promise<SQSRecord[]> => {
    await outbox.settled();
    const events = [...received];
    const deadline = Date.now() + 15_000;
    while ((await waiting(eventsQueue)) > 0) {
      assert.ok(Date.now() < deadline, 'the events queue drained in time');
      events.push(...(await ownEvents(await receive(eventsQueue, 1), events)));
    }
    assert.equal(events.length, count, `no more than ${count} events`);
    return events;
  };

  /**
   * `count` events fanned out by the dispatcher, each in an invocation of its own: the events (one per
   * decision) and the deliveries' messages (one per event and registration).
   */
  const fannedOutEvents = async (
    hooks: Registration[],
    count: number,
  ): Promise<{ events: SQSRecord[]; messages: SQSRecord[] }> => {
    const received = await walletsVerified(count);
    for (const event of received)
      assert.deepEqual(await dispatch({ Records: [event] }), { batchItemFailures: [] });
    const events = await noMoreEventsThan(count, received);
    const messages = await exactly(deliveriesQueue, hooks.length * count);
    await remove(eventsQueue, events);
    // A delivery's id is named by its registration and its event (lib/webhooks/dispatch.ts): as many ids
    // as messages is one delivery per event and registration, as when each event's were counted alone.
    assert.equal(
      new Set(messages.map((m) => JSON.parse(m.body).deliveryId)).size,
      messages.length,
      'no delivery twice',
    );
    return { events, messages };
  };

  /** One event fanned out by the dispatcher: the deliveries' messages, one per registration. */
  const fannedOut = async (hooks: Registration[]): Promise<{ event: SQSRecord; messages: SQSRecord[] }> => {
    const { events, messages } = await fannedOutEvents(hooks, 1);
    return { event: events[0] as SQSRecord, messages };
  };

  /** The hook's one delivery, with the attempts its log keeps. */
  const deliveryOf = async (
    hook: Registration,
  ): Promise<DeliveryRecord & { attempts: DeliveryAttempt[] }> => {
    const page = await repo.listDeliveryPage(tenant, hook.webhookId, { limit: 10 });
    assert.equal(page.data.length, 1, `one delivery for ${hook.webhookId}`);
    const record = page.data[0] as DeliveryRecord;
    return { ...record, attempts: await repo.attemptsOf(record) };
  };

  const messageOf = (messages: SQSRecord[], hook: Registration): SQSRecord => {
    const found = messages.find((m) => JSON.parse(m.body).webhookId === hook.webhookId);
    assert.ok(found, `a message for ${hook.webhookId}`);
    return found;
  };

  /** What the hook's receiver got, each verified both ways: their event ids. */
  const eventIdsAt = (hook: Registration): string[] =>
    hook.receiver.received.map((d: ReceivedDelivery) => assertSignedBoth(d, hook.secret, hook.webhookId).id);

  // ── the cases ──────────────────────────────────────────────────────────────────────────────────

  it('the dispatcher given the same event again, and twice at once, writes no second delivery', async () => {
    const hooks = await registrations(2);
    const { event, messages } = await fannedOut(hooks);
    // The stream (or SQS) delivers the event again: once more, then twice side by side.
    assert.deepEqual(await dispatch({ Records: [event] }), { batchItemFailures: [] });
    const twice = await Promise.all([dispatch({ Records: [event] }), dispatch({ Records: [event] })]);
    assert.deepEqual(twice, [{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    await exactly(deliveriesQueue, 0);
    for (const hook of hooks) assert.equal((await deliveryOf(hook)).status, 'pending');

    assert.deepEqual(await deliver({ Records: messages }), { batchItemFailures: [] });
    await remove(deliveriesQueue, messages);
    const eventId = JSON.parse(event.body).eventId;
    for (const hook of hooks) {
      assert.deepEqual(eventIdsAt(hook), [eventId], 'one delivery, once');
      assert.equal((await deliveryOf(hook)).status, 'delivered');
    }
  });

  it('a batch of one tenant’s events reads its registrations once, and the next batch reads them again', async () => {
    const hooks = await registrations(2);
    const { tenantScope } = await import('../../lib/db/keys.ts');
    let reads = 0;
    db.middlewareStack.add(
      (next) => async (args) => {
        const values = (args.input as { ExpressionAttributeValues?: Record<string, unknown> })
          .ExpressionAttributeValues;
        if (values?.[':prefix'] === 'WEBHOOK#' && values[':pk'] === tenantScope(tenant)) reads += 1;
        return next(args);
      },
      { step: 'initialize', name: 'webhookFaultsReads' },
    );
    try {
      const events = await walletsVerified(3);
      assert.deepEqual(await dispatch({ Records: events }), { batchItemFailures: [] });
      assert.equal(reads, 1, 'one read for the batch’s three events');
      await remove(deliveriesQueue, await exactly(deliveriesQueue, 3 * hooks.length));
      await remove(eventsQueue, events);

      // A registration made after that batch has the next batch's event.
      const [later] = (await registrations(1)) as [Registration];
      const next = await walletsVerified(1);
      assert.deepEqual(await dispatch({ Records: next }), { batchItemFailures: [] });
      assert.equal(reads, 2);
      const messages = await exactly(deliveriesQueue, hooks.length + 1);
      messageOf(messages, later);
      await remove(deliveriesQueue, messages);
      await remove(eventsQueue, next);
    } finally {
      db.middlewareStack.remove('webhookFaultsReads');
    }
  });

  it('a deliverer that dies after a POST and before recording it: the message comes back, the event is delivered again (at least once), the others not twice', async () => {
    const hooks = await registrations(3);
    const [first, crashed, third] = hooks as [Registration, Registration, Registration];
    const { event, messages } = await fannedOut(hooks);
    const eventId = JSON.parse(event.body).eventId;
    const crashedDelivery = JSON.parse(messageOf(messages, crashed).body).deliveryId as string;

    // The attempt's record for one delivery of the batch fails (the worker dies there): its POST was made.
    let faults = 0;
    db.middlewareStack.add(
      (next) => async (args) => {
        const input = args.input as Record<string, unknown>;
        // The attempt's record: the delivery's conditional update (alone when the attempt delivered it, in
        // a transaction with the attempt's item otherwise).
        const written = 'UpdateExpression' in input ? input.Key : input.TransactItems;
        if (written && JSON.stringify(written).includes(crashedDelivery)) {
          faults += 1;
          throw new Error('the worker died here');
        }
        return next(args);
      },
      { step: 'initialize', name: 'webhookFaultsDeath' },
    );
    let answer: unknown;
    try {
      answer = await deliver({ Records: messages });
    } finally {
      db.middlewareStack.remove('webhookFaultsDeath');
    }
    assert.equal(faults, 1);
    assert.deepEqual(answer, {
      batchItemFailures: [{ itemIdentifier: messageOf(messages, crashed).messageId }],
    });
    for (const hook of hooks) assert.deepEqual(eventIdsAt(hook), [eventId], 'each POSTed once');
    const lost = await deliveryOf(crashed);
    assert.equal(lost.status, 'pending');
    assert.deepEqual(lost.attempts, [], 'the attempt was never recorded');

    // The invocation ended without deleting anything, as a crash does: every message comes back.
    await sqs.send(
      new ChangeMessageVisibilityBatchCommand({
        QueueUrl: deliveriesQueue,
        Entries: messages.map((m, i) => ({
          Id: String(i),
          ReceiptHandle: m.receiptHandle,
          VisibilityTimeout: 0,
        })),
      }),
    );
    const again = await exactly(deliveriesQueue, 3);
    assert.deepEqual(again.map((m) => m.body).sort(), messages.map((m) => m.body).sort());
    assert.deepEqual(await deliver({ Records: again }), { batchItemFailures: [] });
    await remove(deliveriesQueue, again);

    assert.deepEqual(eventIdsAt(crashed), [eventId, eventId], 'the unrecorded attempt is made again');
    const [lostPost, retryPost] = crashed.receiver.received as [ReceivedDelivery, ReceivedDelivery];
    assert.equal(retryPost.body, lostPost.body, 'the same bytes');
    for (const hook of [first, third])
      assert.deepEqual(eventIdsAt(hook), [eventId], 'recorded: not sent again');
    for (const hook of hooks) {
      const record = await deliveryOf(hook);
      assert.equal(record.status, 'delivered');
      assert.deepEqual(
        record.attempts.map((a) => [a.attempt, a.statusCode]),
        [[1, 204]],
      );
    }
    await exactly(deliveriesQueue, 0);
  });

  it('the same delivery message twice at once: the receiver may get it twice, one attempt is recorded', async () => {
    const [hook] = (await registrations(1)) as [Registration];
    const { event, messages } = await fannedOut([hook]);
    const results = await Promise.all([deliver({ Records: messages }), deliver({ Records: messages })]);
    assert.deepEqual(results, [{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    await remove(deliveriesQueue, messages);
    const ids = eventIdsAt(hook);
    assert.ok(ids.length >= 1 && ids.length <= 2, `${ids.length} POSTs`);
    assert.ok(ids.every((id) => id === JSON.parse(event.body).eventId));
    const record = await deliveryOf(hook);
    assert.equal(record.status, 'delivered');
    assert.equal(record.attempts.length, 1);
    await exactly(deliveriesQueue, 0);
  });

  it('a batch’s attempts run side by side: a receiver slow to answer holds back none of the others', async () => {
    const hooks = await registrations(2);
    const [slow, fast] = hooks as [Registration, Registration];
    // The slow receiver answers only once the fast one has its attempt (then 3 s more): were the attempts
    // run one after the other, the slow one (first in the batch) would time out instead (no clock involved).
    const fastHasIt = receivedBy(fast.receiver);
    slow.receiver.answer = () => ({ status: 204, after: fastHasIt, delayMs: 3000 });
    const { messages } = await fannedOut(hooks);
    // The slow one first in the batch.
    const batch = [messageOf(messages, slow), messageOf(messages, fast)];
    const started = Date.now();
    assert.deepEqual(await deliver({ Records: batch }), { batchItemFailures: [] });
    await remove(deliveriesQueue, batch);
    assert.ok(Date.now() - started >= 3000, 'the batch waited for the slow receiver');
    assert.equal(fast.receiver.received.length, 1);
    assert.equal((await deliveryOf(fast)).status, 'delivered');
    assert.equal((await deliveryOf(slow)).status, 'delivered', 'answered, not timed out');
  });

  it('a tenant holds at most its share of the lane: its next attempt is put back, and another tenant’s goes through meanwhile', async () => {
    const share = tenantShare.tenantShareOf('webhook-deliveries');
    assert.ok(share < 20, 'a share is less than the lane');
    const noisy = tenant;
    const hooks = await registrations(share + 1);
    let letGo = () => {};
    const gate = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    for (const hook of hooks) hook.receiver.answer = () => ({ status: 204, after: gate });
    const { messages } = await fannedOut(hooks);
    await remove(deliveriesQueue, messages);
    const held = hooks.slice(0, share);
    const last = hooks[share] as Registration;
    // `share` attempts in flight, each held open by its receiver until the test lets them go.
    const inFlight = held.map((hook) => deliver({ Records: [messageOf(messages, hook)] }));
    await Promise.all(held.map((hook) => hook.receiver.until(1)));

    // One more of the same tenant: not attempted, put back (deferred) for later.
    assert.deepEqual(await deliver({ Records: [messageOf(messages, last)] }), { batchItemFailures: [] });
    assert.equal(last.receiver.received.length, 0, 'no POST beyond the tenant’s share');
    const [deferred] = (await exactly(deliveriesQueue, 1)) as [SQSRecord];
    await remove(deliveriesQueue, [deferred]);
    assert.equal(JSON.parse(deferred.body).deliveryId, JSON.parse(messageOf(messages, last).body).deliveryId);
    assert.equal(JSON.parse(deferred.body).deferrals, 1);
    const waiting = await deliveryOf(last);
    assert.equal(waiting.status, 'pending');
    assert.equal(waiting.attempts.length, 0);

    // Another tenant's delivery, while the first holds its whole share.
    tenant = { environment: 'sandbox', associationId: `webhook-faults-${randomUUID()}` };
    const [quiet] = (await registrations(1)) as [Registration];
    const quietOne = await fannedOut([quiet]);
    assert.deepEqual(await deliver({ Records: quietOne.messages }), { batchItemFailures: [] });
    await remove(deliveriesQueue, quietOne.messages);
    assert.equal(quiet.receiver.received.length, 1);
    assert.equal((await deliveryOf(quiet)).status, 'delivered');

    // Let go: the share is free again, and the deferred attempt is made.
    tenant = noisy;
    letGo();
    assert.deepEqual(
      await Promise.all(inFlight),
      held.map(() => ({ batchItemFailures: [] })),
    );
    assert.deepEqual(await deliver({ Records: [deferred] }), { batchItemFailures: [] });
    assert.equal(last.receiver.received.length, 1);
    assert.equal((await deliveryOf(last)).status, 'delivered');
  });

  it('a receiver that never answers gives its tenant’s share back at the slow mark: the tenant’s other registrations are attempted while it hangs', async () => {
    const share = tenantShare.tenantShareOf('webhook-deliveries');
    const [silent] = (await registrations(1)) as [Registration];
    let letGo = () => {};
    const gate = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    silent.receiver.answer = () => ({ status: 204, after: gate });
    // `share` deliveries to the silent receiver: all its tenant's slots, each attempt held open.
    const held = (await fannedOutEvents([silent], share)).messages;
    await remove(deliveriesQueue, held);
    // And one event to it and to another registration of the tenant, whose delivery waits for later.
    const [healthy] = (await registrations(1)) as [Registration];
    const next = await fannedOut([silent, healthy]);
    await remove(deliveriesQueue, next.messages);
    let settled = 0;
    const inFlight = held.map((message) =>
      deliver({ Records: [message] }).finally(() => {
        settled += 1;
      }),
    );
    await silent.receiver.until(share);
    // Its first attempt unanswered past the slow mark: the registration is marked slow.
    const deadline = Date.now() + 15_000;
    while (!(await repo.findRegistration(tenant, silent.webhookId, { consistent: true }))?.slowUntil) {
      assert.ok(Date.now() < deadline, 'the silent registration marked slow');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    // The other registration's attempt, while every attempt to the silent one still hangs.
    assert.deepEqual(await deliver({ Records: [messageOf(next.messages, healthy)] }), {
      batchItemFailures: [],
    });
    assert.equal(healthy.receiver.received.length, 1, 'attempted, not put back behind the silent receiver');
    assert.equal((await deliveryOf(healthy)).status, 'delivered');
    assert.equal(settled, 0, 'the silent receiver’s attempts were all still in flight');
    assert.equal(silent.receiver.received.length, share);

    retriesToSink();
    letGo();
    assert.deepEqual(
      await Promise.all(inFlight),
      held.map(() => ({ batchItemFailures: [] })),
    );
  });

  it('a slot whose holder died is taken again once its lease runs out: a lease bounds the share, not a count that leaks', async () => {
    const share = tenantShare.tenantShareOf('webhook-deliveries');
    const [hook] = (await registrations(1)) as [Registration];
    const { messages } = await fannedOut([hook]);
    await remove(deliveriesQueue, messages);
    // Every slot taken by a worker that then died (never released).
    for (let i = 0; i < share; i++)
      assert.ok(await tenantShare.takeSlot(tenant, 'webhook-deliveries', share, `died-${i}`, new Date()));
    const [message] = messages as [SQSRecord];
    await delivery.attemptDelivery(JSON.parse(message.body), 'main');
    assert.equal(hook.receiver.received.length, 0, 'deferred while the leases run');
    await remove(deliveriesQueue, await exactly(deliveriesQueue, 1));
    // Past the leases (the worker's timeout, which none outlives): the slot is the next attempt's.
    const later = () => new Date(Date.now() + tenantShare.LEASE_MS + 1000);
    await delivery.attemptDelivery(JSON.parse(message.body), 'main', later);
    assert.equal(hook.receiver.received.length, 1);
    assert.equal((await deliveryOf(hook)).status, 'delivered');
  });

  it('takes at once for one tenant get exactly its share: one item holds the holders, and a release frees one', async () => {
    const share = tenantShare.tenantShareOf('webhook-deliveries');
    const at = new Date();
    const takes = await Promise.all(
      Array.from({ length: 3 * share }, (_, i) =>
        tenantShare.takeSlot(tenant, 'webhook-deliveries', share, `racer-${i}`, at),
      ),
    );
    const held = takes.filter((slot) => slot !== null);
    assert.equal(held.length, share, 'no more holders than the share, however the writes met');
    // Past this instance's hint that the tenant is full (a second): the item decides, and one given back is free.
    await held[0]?.release();
    const after = new Date(at.getTime() + 1500);
    const next = await tenantShare.takeSlot(tenant, 'webhook-deliveries', share, 'next', after);
    assert.ok(next, 'the slot given back is taken');
    assert.equal(
      await tenantShare.takeSlot(
        tenant,
        'webhook-deliveries',
        share,
        'one-more',
        new Date(after.getTime() + 1500),
      ),
      null,
      'and the share is full again',
    );
  });

  it('an attempt that delivered, kept on its delivery, is written out when a redelivery’s attempt follows: each attempt logged once', async () => {
    const [hook] = (await registrations(1)) as [Registration];
    const { messages } = await fannedOut([hook]);
    const [message] = messages as [SQSRecord];
    await remove(deliveriesQueue, messages);
    retriesToSink();
    await delivery.attemptDelivery(JSON.parse(message.body), 'main');
    let record = await deliveryOf(hook);
    assert.equal(record.status, 'delivered');
    assert.deepEqual(
      record.attempts.map((a) => [a.attempt, a.statusCode]),
      [[1, 204]],
    );
    const { getRecord } = await import('../../lib/db/items.ts');
    const { webhookKeys } = await import('../../lib/db/keys.ts');
    const attemptItem = (n: number) =>
      getRecord(webhookKeys.attempt(tenant, hook.webhookId, record.deliveryId, n), { consistent: true });
    assert.equal(
      await attemptItem(1),
      undefined,
      'a first attempt that delivered is one write: the delivery’s',
    );

    // Redelivered, and the receiver fails: attempt 1 becomes an item of its own beside attempt 2.
    hook.receiver.answer = () => ({ status: 503 });
    const { attempts: _, ...delivered } = record;
    assert.equal((await repo.reopenDelivery(delivered, new Date())).outcome, 'written');
    // A redelivery is one more attempt: failed, it is the last (its message goes on to the dead-letter queue).
    await assert.rejects(delivery.attemptDelivery(JSON.parse(message.body), 'main'), delivery.DeliveryFailed);
    record = await deliveryOf(hook);
    assert.equal(record.status, 'failed');
    assert.deepEqual(
      record.attempts.map((a) => [a.attempt, a.statusCode]),
      [
        [1, 204],
        [2, 503],
      ],
    );
    assert.ok(await attemptItem(1));
    assert.equal(record.lastAttempt, undefined, 'nothing kept on the delivery once written out');
  });

  it('keeps a delivery’s last 20 attempts, each an item of its own: the delivery item does not grow', async () => {
    const [hook] = (await registrations(1)) as [Registration];
    hook.receiver.answer = () => ({ status: 503 });
    const { messages } = await fannedOut([hook]);
    await remove(deliveriesQueue, messages);
    let record = await deliveryOf(hook);
    const { attempts: _, ...pending } = record;
    for (let attempt = 1; attempt <= 23; attempt++) {
      const at = new Date(Date.now() + attempt).toISOString();
      const written = await repo.recordAttempt(
        { ...pending, attemptCount: attempt - 1 },
        { attempt, at, statusCode: 503, error: null, latencyMs: 1, responseExcerpt: null },
        { status: 'pending', nextAttemptAt: at },
      );
      assert.equal(written.outcome, 'written', `attempt ${attempt}`);
    }
    record = await deliveryOf(hook);
    assert.equal(record.attemptCount, 23);
    assert.deepEqual(
      record.attempts.map((a) => a.attempt),
      Array.from({ length: schedule.KEPT_ATTEMPTS }, (_, i) => i + 24 - schedule.KEPT_ATTEMPTS),
    );
    const { getRecord } = await import('../../lib/db/items.ts');
    const { webhookKeys } = await import('../../lib/db/keys.ts');
    const item = await getRecord<object>(webhookKeys.delivery(tenant, hook.webhookId, record.deliveryId));
    assert.ok(item && !('attempts' in item), 'no attempt is kept on the delivery item');
    // The same attempt recorded twice (two workers): the second finds it taken.
    const again = await repo.recordAttempt(
      { ...pending, attemptCount: 22 },
      {
        attempt: 23,
        at: new Date().toISOString(),
        statusCode: 204,
        error: null,
        latencyMs: 1,
        responseExcerpt: null,
      },
      { status: 'delivered', nextAttemptAt: null },
    );
    assert.equal(again.outcome, 'taken');
  });

  it('registrations and deactivations that meet another transaction on the tenant’s count (TransactionConflict) are retried, never answered as done when not', async () => {
    const { createWebhook, deleteWebhook, getWebhook } = await import('../../lib/webhooks/service.ts');
    const { TransactionCanceledException } = await import('@aws-sdk/client-dynamodb');
    // DynamoDB cancels a transaction whose item another transaction is writing at that moment: here, the
    // next `conflicts` transactions this process sends (the tenant's count is the second write of each).
    let conflicts = 0;
    let met = 0;
    db.middlewareStack.add(
      (next) => async (args) => {
        if ('TransactItems' in (args.input as object) && conflicts > 0) {
          conflicts -= 1;
          met += 1;
          throw new TransactionCanceledException({
            message: 'Transaction cancelled [None, TransactionConflict]',
            $metadata: {},
            CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
          });
        }
        return next(args);
      },
      { step: 'initialize', name: 'webhookFaultsConflict' },
    );
    try {
      conflicts = 1;
      const created = await createWebhook(
        tenant,
        { url: 'http://127.0.0.1:9/hooks', events: ['*'] },
        new Date(),
      );
      assert.equal(met, 1);
      assert.equal((await getWebhook(tenant, created.id)).status, 'active');
      // Conflicts that do not end: an error (a 500), not a 200 with the registration still active.
      conflicts = 10;
      await assert.rejects(deleteWebhook(tenant, created.id, new Date()), /could not be deactivated/);
      assert.equal((await getWebhook(tenant, created.id)).status, 'active');
      conflicts = 1;
      met = 0;
      const deleted = await deleteWebhook(tenant, created.id, new Date());
      assert.equal(met, 1);
      assert.equal(deleted.status, 'deactivated', 'DELETE answers what it did');
      assert.equal((await getWebhook(tenant, created.id)).status, 'deactivated');
    } finally {
      db.middlewareStack.remove('webhookFaultsConflict');
    }
  });

  it('a receiver that answers after 10 s: the attempt failed (no answer in time) and is retried', async () => {
    const [hook] = (await registrations(1)) as [Registration];
    // The first attempt is answered only once the worker has handled it: the worker cannot have waited for
    // the answer, however long anything took (its attempt ends at its own 10 s timeout).
    const handled = Promise.withResolvers<void>();
    hook.receiver.answer = (i) => (i === 0 ? { status: 204, after: handled.promise } : { status: 204 });
    const { messages } = await fannedOut([hook]);
    retriesToSink();
    assert.deepEqual(await deliver({ Records: messages }), { batchItemFailures: [] });
    handled.resolve();
    await remove(deliveriesQueue, messages);
    const record = await deliveryOf(hook);
    assert.equal(record.status, 'pending');
    assert.ok(record.nextAttemptAt);
    const [attempt] = record.attempts as [DeliveryAttempt];
    assert.equal(attempt.statusCode, null);
    assert.equal(attempt.error, 'timeout');
    assert.ok(attempt.latencyMs >= 9_900, String(attempt.latencyMs));
  });

  it('a receiver that never answers 2xx: 11 attempts over the schedule (about 72 h, scaled), then failed, its message dead-lettered, and nothing more', async () => {
    const [hook] = (await registrations(1)) as [Registration];
    hook.receiver.answer = () => ({ status: 503 });
    const { messages } = await fannedOut([hook]);
    const [message] = messages as [SQSRecord];
    await remove(deliveriesQueue, messages);
    retriesToSink();
    const parsed = JSON.parse(message.body);
    const scale = Number(process.env.WEBHOOK_RETRY_SCALE);
    // The worker's clock, moved to each attempt's due time (the re-queued messages are not waited for).
    let clock = Date.now();
    const now = () => new Date(clock);
    let waited = 0;
    logs = captureLogs();
    for (let attempt = 1; attempt <= schedule.MAX_ATTEMPTS; attempt += 1) {
      // The last attempt fails its message, which the redrive policy then moves to the dead-letter queue.
      if (attempt === schedule.MAX_ATTEMPTS)
        await assert.rejects(delivery.attemptDelivery(parsed, 'main', now), delivery.DeliveryFailed);
      else await delivery.attemptDelivery(parsed, 'main', now);
      const record = await deliveryOf(hook);
      assert.equal(record.attempts.length, attempt, `attempt ${attempt} recorded`);
      assert.equal(hook.receiver.received.length, attempt);
      if (attempt === schedule.MAX_ATTEMPTS) break;
      assert.equal(record.status, 'pending');
      const due = Date.parse(record.nextAttemptAt ?? '');
      const wait = due - clock;
      const base = schedule.retryDelayMs(attempt, scale, () => 0.5);
      assert.ok(
        wait >= base * 0.8 - 1 && wait <= base * 1.2 + 1,
        `wait after attempt ${attempt}: ${wait} ms`,
      );
      waited += wait;
      // Early: put back, not attempted.
      clock = due - 1;
      await delivery.attemptDelivery(parsed, 'main', now);
      assert.equal(hook.receiver.received.length, attempt, 'not before its time');
      clock = due;
    }
    const failed = await deliveryOf(hook);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.nextAttemptAt, null);
    assert.ok(failed.attempts.every((a) => a.statusCode === 503));
    const expected = schedule.SCHEDULE_SECONDS * 1000 * scale;
    assert.ok(waited >= expected * 0.8 && waited <= expected * 1.2, `${waited} ms of ${expected}`);
    clock += 86_400_000;
    // Every later receive of its message fails it again, until the redrive policy dead-letters it.
    await assert.rejects(delivery.attemptDelivery(parsed, 'main', now), delivery.DeliveryFailed);
    assert.equal(hook.receiver.received.length, schedule.MAX_ATTEMPTS, 'nothing after the last attempt');
    // Signed at the worker's clock (days ahead): the event id is what is compared here.
    assert.deepEqual(
      [...new Set(hook.receiver.received.map((d) => d.headers['webhook-id']))],
      [failed.eventId],
    );
  });
});
