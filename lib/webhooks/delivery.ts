// One attempt of one delivery (the webhook-deliverer worker). The delivery item is the truth: its
// status, its attempt count and when the next attempt is due. A message that comes early (a retry
// waits longer than SQS can delay, or the stream sent it twice) is put back until then; an attempt is
// recorded conditionally on the one before it, so two workers holding the same message record one; a
// registration deactivated meanwhile cancels the delivery without an attempt. A delivery whose last
// attempt failed fails its message until the redrive policy dead-letters it (DeliveryFailed).
//
// Two lanes keep a slow or dead receiver from holding up the others: every attempt starts in the main
// lane; one unanswered after 2 s marks its registration slow for 5 minutes, and while it is marked its
// attempts are forwarded to the slow lane, a queue and worker of their own, so the main lane's
// invocations keep serving every other registration. A prompt answer in the slow lane ends the mark.
// The main-lane attempt that finds its receiver slow gives its tenant's slot back at that mark (it still
// waits out its timeout): otherwise the few attempts a dead receiver got before its mark would hold the
// tenant's whole share for 10 s, and every other registration of the tenant would wait behind them.
//
// Within each lane a tenant holds at most its share of the invocations (lib/webhooks/tenant-share.ts):
// an attempt takes one of its tenant's slots first, and one whose tenant has them all is put back with a
// short delay (defer), so a tenant whose receivers are slow but not slow enough for the mark (1.9 s,
// each) holds its share and no more while every other tenant's deliveries go through.
import { randomUUID } from 'node:crypto';
import { sendToQueue } from '../aws/queues.ts';
import { config } from '../config.ts';
import { logger } from '../log.ts';
import * as metrics from '../metrics.ts';
import type { Tenant } from '../tenant.ts';
import { annotate } from '../trace.ts';
import type { DeliveryMessage } from './delivery-message.ts';
import { type PostResult, post, urlPolicyFor } from './destinations.ts';
import { cancelDelivery, clearSlow, findDeliveryAndRegistration, markSlow, recordAttempt } from './repo.ts';
import { retryDelayMs } from './schedule.ts';
import { openWebhookSecret } from './service.ts';
import { deliveryHeaders } from './signing.ts';
import { fullForMs, takeSlot, tenantShareOf } from './tenant-share.ts';

/**
 * Thrown for a delivery whose last attempt failed, on every receive of its message: the message is never
 * deleted, so the queue's redrive policy moves it to the alarmed dead-letter queue.
 */
export class DeliveryFailed extends Error {
  override name = 'DeliveryFailed';
}

/** A receiver answers within this, or the attempt failed. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
const DELIVERY_QUEUE = 'webhook-deliveries';
const SLOW_QUEUE = 'webhook-slow-deliveries';
/** An attempt that takes longer marks its receiver slow... */
export const SLOW_ATTEMPT_MS = 2_000;
/** ...for this long (renewed by every slow attempt; a prompt answer in the slow lane ends it). */
const SLOW_LANE_MS = 5 * 60_000;

/**
 * `main`: the webhook-deliveries queue, where every attempt starts; `slow`: webhook-slow-deliveries, where
 * a receiver marked slow is attempted, apart from every other registration.
 */
export type DeliveryLane = 'main' | 'slow';
const LANE_QUEUES: Record<DeliveryLane, string> = { main: DELIVERY_QUEUE, slow: SLOW_QUEUE };
/** SQS's longest delay. */
const MAX_DELAY_SECONDS = 900;
/**
 * How long a deferred attempt waits before it asks for its tenant's slot again, at random within these
 * bounds: short for a tenant just at its share (a burst loses little), long for one that has held it
 * for longer than BURST_MS — its backlog may be hundreds of attempts, and spread over 10-30 s they go
 * round the queue at tens a second, not hundreds (a quiet tenant's messages wait behind that round).
 */
const DEFER_SECONDS = { burst: { min: 1, max: 2 }, backlog: { min: 10, max: 30 } };
const BURST_MS = 1000;

/** What an attempt came to, for WebhookDelivery (lib/metrics.ts). */
function outcomeOf(result: PostResult): metrics.DeliveryOutcome {
  if (result.statusCode !== null) return `${Math.min(5, Math.floor(result.statusCode / 100))}xx` as never;
  if (result.error === 'timeout' || result.error === 'blocked') return result.error;
  return 'unreachable';
}

/**
 * From the envelope sent: when its event was created, and the payment it is about when it is one (its
 * id follows it from the request to the receiver).
 */
function envelopeFacts(payload: string): { createdAt: string; transactionRecordId: string | undefined } {
  const { createdAt, data } = JSON.parse(payload) as { createdAt: string; data?: Record<string, unknown> };
  const recordId = data?.transactionRecordId;
  return { createdAt, transactionRecordId: typeof recordId === 'string' ? recordId : undefined };
}

async function requeue(message: DeliveryMessage, notBefore: number, now: Date): Promise<void> {
  const delay = Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil((notBefore - now.getTime()) / 1000)));
  const { deferrals: _, ...rest } = message;
  await sendToQueue(DELIVERY_QUEUE, { ...rest, notBefore }, delay);
}

/** Puts the attempt back in its lane, for later (DEFER_SECONDS): its tenant holds its whole share. */
async function defer(message: DeliveryMessage, lane: DeliveryLane, tenant: Tenant, now: Date): Promise<void> {
  const { min, max } =
    fullForMs(tenant, LANE_QUEUES[lane], now) > BURST_MS ? DEFER_SECONDS.backlog : DEFER_SECONDS.burst;
  const deferrals = (message.deferrals ?? 0) + 1;
  await sendToQueue(
    LANE_QUEUES[lane],
    { ...message, deferrals },
    Math.round(min + Math.random() * (max - min)),
  );
}

export async function attemptDelivery(
  message: DeliveryMessage,
  lane: DeliveryLane = 'main',
  now: () => Date = () => new Date(),
): Promise<void> {
  const tenant: Tenant = { environment: message.environment, associationId: message.associationId };
  logger.appendKeys({ webhookId: message.webhookId, deliveryId: message.deliveryId });
  // The tenant's slot first, before anything is read: a tenant over its share may have hundreds of
  // messages going round the queue, and each deferral must cost one conditional write and one send, no
  // more (none but the send for a second after this instance last found the tenant full).
  const queue = LANE_QUEUES[lane];
  const slot = await takeSlot(tenant, queue, tenantShareOf(queue), randomUUID(), now());
  if (slot === null) {
    // DEBUG: a tenant's flood goes round the queue many times, a line each would bill every turn; the
    // attempt that runs logs `Webhook delivery attempted`, and the lane's queue age alarm sees a held tenant.
    logger.debug('Webhook attempt deferred: the tenant holds its share of the lane', { lane });
    return defer(message, lane, tenant, now());
  }
  let released: Promise<void> | undefined;
  // Once only, whichever asks first: the slow mark (main lane) or the attempt's end.
  // A slot not released is free again when its lease runs out: a warning, not a failed attempt.
  const release = () => {
    released ??= slot
      .release()
      .catch((error: unknown) =>
        logger.warn('A delivery slot could not be released', { error: (error as Error).message }),
      );
    return released;
  };
  try {
    await attemptHoldingSlot(message, lane, now, release);
  } finally {
    await release();
  }
}

async function attemptHoldingSlot(
  message: DeliveryMessage,
  lane: DeliveryLane,
  now: () => Date,
  releaseSlot: () => Promise<void>,
): Promise<void> {
  const tenant: Tenant = { environment: message.environment, associationId: message.associationId };
  // Both as they are now, in one request: the delivery says whether this attempt is still owed (a message
  // that comes back after its attempt was recorded sends nothing), the registration whether it is still
  // active (a deactivation stops the very next attempt) and in which lane.
  const { delivery, registration } = await findDeliveryAndRegistration(
    tenant,
    message.webhookId,
    message.deliveryId,
  );
  if (delivery?.status === 'failed' && delivery.attemptCount >= delivery.finalAttempt)
    throw new DeliveryFailed(`Delivery ${message.deliveryId} failed after ${delivery.attemptCount} attempts`);
  if (delivery?.status !== 'pending') return;
  const due = Math.max(message.notBefore ?? 0, Date.parse(delivery.nextAttemptAt ?? '') || 0);
  if (due > now().getTime()) return requeue(message, due, now());

  if (registration?.status !== 'active') {
    await cancelDelivery(delivery, now());
    return;
  }
  if (lane === 'main' && Date.parse(registration.slowUntil ?? '') > now().getTime()) {
    await sendToQueue(SLOW_QUEUE, message);
    return;
  }
  const attempt = delivery.attemptCount + 1;
  const at = now();
  const envelope = envelopeFacts(delivery.payload);
  annotate({ transactionRecordId: envelope.transactionRecordId });
  const fact = {
    associationId: delivery.associationId,
    webhookId: delivery.webhookId,
    deliveryId: delivery.deliveryId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    transactionRecordId: envelope.transactionRecordId,
  };
  // An attempt still unanswered after SLOW_ATTEMPT_MS marks the receiver slow at once (or renews the
  // mark), so its other deliveries stop taking main-lane invocations while this one waits out its timeout;
  // in the main lane it gives its tenant's slot back first, so the tenant's other registrations have it
  // while this one waits (in the slow lane the slots bound exactly such waits, and it keeps its own).
  const slow = setTimeout(async () => {
    metrics.countMarkedSlow(fact);
    if (lane === 'main') await releaseSlot();
    await markSlow(tenant, registration.webhookId, new Date(Date.now() + SLOW_LANE_MS)).catch(
      (error: unknown) =>
        logger.warn('A slow receiver could not be marked', { error: (error as Error).message }),
    );
  }, SLOW_ATTEMPT_MS);
  const result = await post(
    registration.url,
    deliveryHeaders({
      webhookId: registration.webhookId,
      eventId: delivery.eventId,
      secret: await openWebhookSecret(registration),
      body: delivery.payload,
      now: at,
    }),
    delivery.payload,
    urlPolicyFor(registration.environment),
    ATTEMPT_TIMEOUT_MS,
  ).finally(() => clearTimeout(slow));
  const delivered = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const final = !delivered && attempt >= delivery.finalAttempt;
  const nextAttemptAt =
    delivered || final ? null : at.getTime() + retryDelayMs(attempt, config().WEBHOOK_RETRY_SCALE);
  const recorded = await recordAttempt(
    delivery,
    {
      attempt,
      at: at.toISOString(),
      statusCode: result.statusCode,
      error: result.error,
      latencyMs: result.latencyMs,
      responseExcerpt: result.responseExcerpt,
    },
    {
      status: delivered ? 'delivered' : final ? 'failed' : 'pending',
      nextAttemptAt: nextAttemptAt === null ? null : new Date(nextAttemptAt).toISOString(),
    },
  );
  // Another worker recorded this attempt first (the same message twice): its schedule stands.
  if (recorded.outcome !== 'written') return;
  metrics.countDelivery(
    { ...fact, outcome: outcomeOf(result), attempt, eventCreatedAt: envelope.createdAt },
    now(),
  );
  logger.info('Webhook delivery attempted', {
    attempt,
    eventType: delivery.eventType,
    transactionRecordId: fact.transactionRecordId,
    statusCode: result.statusCode,
    error: result.error,
    detail: result.detail,
    latencyMs: result.latencyMs,
  });
  if (lane === 'slow' && delivered && result.latencyMs < SLOW_ATTEMPT_MS)
    await clearSlow(tenant, registration.webhookId);
  if (nextAttemptAt !== null) await requeue(message, nextAttemptAt, now());
  if (final)
    throw new DeliveryFailed(`Delivery ${delivery.deliveryId} failed after its last attempt (${attempt})`);
}
