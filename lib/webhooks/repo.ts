// Webhook registrations and deliveries: tenant-owned items (lib/db/keys.ts webhookKeys). A registration
// moves active → deactivated once, together with the count of active ones (one transaction). A delivery
// is written once per (registration, event), pending, and each attempt updates it conditionally on the
// attempt it follows, so two workers holding the same message record one attempt.
import { absentOrBelow, holds } from '../db/conditions.ts';
import { entity, recordOf } from '../db/entity.ts';
import {
  createIfAbsent,
  getRecord,
  readAllPages,
  type TransactionOutcome,
  type TransactionWrite,
  transact,
  updateIf,
  type Written,
} from '../db/items.ts';
import { tenantOf, tenantScope, webhookKeys } from '../db/keys.ts';
import { type PageRequest, queryPage } from '../db/paginate.ts';
import type { Environment, Tenant } from '../http/types.ts';
import type { SealedSecret } from '../secret-box.ts';

export type WebhookStatus = 'active' | 'deactivated';

export interface WebhookRecord {
  webhookId: string;
  environment: Environment;
  associationId: string;
  url: string;
  events: string[];
  description: string | null;
  status: WebhookStatus;
  /** The Standard Webhooks secret (`whsec_…`), sealed under the KEK for `webhook:<webhookId>`. */
  sealedSecret: SealedSecret;
  createdAt: string;
  updatedAt: string;
  deactivatedAt: string | null;
  /**
   * Until when the receiver counts as slow (an attempt took over SLOW_ATTEMPT_MS or got no answer): its
   * attempts run in the slow lane meanwhile. Absent or past: the main lane.
   */
  slowUntil?: string | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  /** The receiver's HTTP status, or null when no answer came (then `error` says why). */
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  /** The first characters of the receiver's answer, nothing more. */
  responseExcerpt: string | null;
}

export interface DeliveryRecord {
  deliveryId: string;
  webhookId: string;
  environment: Environment;
  associationId: string;
  eventId: string;
  eventType: string;
  /** The envelope, exactly the bytes sent (every attempt sends the same body). */
  payload: string;
  status: DeliveryStatus;
  attemptCount: number;
  /** The attempt after which a failure is final: the schedule's last, or one more per redelivery. */
  finalAttempt: number;
  attempts: DeliveryAttempt[];
  /** ISO time of the next attempt while pending; null once the delivery ended. */
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const webhookEntity = entity<WebhookRecord>({
  type: 'webhook',
  keyOf: (record) => webhookKeys.registration(tenantOf(record), record.webhookId),
});

export const deliveryEntity = entity<DeliveryRecord>({
  type: 'webhookDelivery',
  keyOf: (record) => webhookKeys.delivery(tenantOf(record), record.webhookId, record.deliveryId),
});

/** Tries of a transaction DynamoDB cancels because another one was writing one of its items. */
const CONFLICT_TRIES = 3;

/**
 * The transaction, tried again while DynamoDB cancels it for a conflict (TransactionConflict: another
 * transaction was writing one of its items at that moment, as two registrations of one tenant changing at
 * once both write its count); any other outcome as it came.
 */
async function transactPastConflicts(writes: TransactionWrite[]): Promise<TransactionOutcome> {
  for (let tries = 1; ; tries += 1) {
    const written = await transact(writes);
    if (
      written.outcome === 'written' ||
      tries === CONFLICT_TRIES ||
      !written.reasons.some((reason) => reason.code === 'TransactionConflict')
    )
      return written;
    await new Promise((resolve) => setTimeout(resolve, 25 * tries * Math.random()));
  }
}

/** Writes a registration if the tenant has fewer than `limit` active ones; false when it has that many. */
export async function putRegistration(record: WebhookRecord, limit: number): Promise<boolean> {
  const written = await transactPastConflicts([
    {
      put: { entity: webhookEntity as never, record, condition: { expression: 'attribute_not_exists(pk)' } },
    },
    {
      update: {
        key: webhookKeys.activeCount(tenantOf(record)),
        changes: { add: { active: 1 }, set: { type: 'webhookCount' } },
        condition: absentOrBelow('active', limit),
      },
    },
  ]);
  if (written.outcome === 'written') return true;
  if (written.reasons[1]?.code === 'ConditionalCheckFailed') return false;
  throw new Error(`Webhook ${record.webhookId} could not be written: ${JSON.stringify(written.reasons)}`);
}

export const findRegistration = (tenant: Tenant, webhookId: string, options: { consistent?: boolean } = {}) =>
  getRecord<WebhookRecord>(webhookKeys.registration(tenant, webhookId), options);

/**
 * Deactivates an active registration and counts it out; false when it was not active (missing, or
 * deactivated already); throws when it could not be written (never reported as not active).
 */
export async function deactivateRegistration(tenant: Tenant, webhookId: string, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const written = await transactPastConflicts([
    {
      update: {
        key: webhookKeys.registration(tenant, webhookId),
        changes: { set: { status: 'deactivated', deactivatedAt: at, updatedAt: at } },
        condition: holds({ status: 'active' }),
      },
    },
    {
      update: {
        key: webhookKeys.activeCount(tenant),
        changes: { add: { active: -1 } },
        condition: holds({}),
      },
    },
  ]);
  if (written.outcome === 'written') return true;
  if (written.reasons[0]?.code === 'ConditionalCheckFailed') return false;
  throw new Error(`Webhook ${webhookId} could not be deactivated: ${JSON.stringify(written.reasons)}`);
}

export const listRegistrationPage = (tenant: Tenant, page: Omit<PageRequest, 'binding'>) =>
  queryPage(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': tenantScope(tenant), ':prefix': webhookKeys.registrationPrefix },
    },
    { ...page, binding: { scope: tenantScope(tenant), query: 'webhooks' } },
    (item) => ({ pk: item.pk, sk: item.sk }),
    (item) => recordOf<WebhookRecord>(item),
  );

/** Every active registration of the tenant (at most the limit, so one short query). */
export const activeRegistrations = (tenant: Tenant) =>
  readAllPages<WebhookRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: '#status = :active',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':pk': tenantScope(tenant),
      ':prefix': webhookKeys.registrationPrefix,
      ':active': 'active',
    },
    ConsistentRead: true,
  });

/** Marks the receiver slow until `until` (attempts then go to the slow lane). */
export const markSlow = (tenant: Tenant, webhookId: string, until: Date) =>
  updateIf<WebhookRecord>(
    webhookKeys.registration(tenant, webhookId),
    { set: { slowUntil: until.toISOString() } },
    holds({}),
  );

/** The receiver answered promptly again: back to the main lane. */
export const clearSlow = (tenant: Tenant, webhookId: string) =>
  updateIf<WebhookRecord>(webhookKeys.registration(tenant, webhookId), { remove: ['slowUntil'] }, holds({}));

/** Writes a delivery once: a second fan-out of the same event finds it there. */
export const putDelivery = (record: DeliveryRecord): Promise<Written<DeliveryRecord>> =>
  createIfAbsent(deliveryEntity, record);

export const findDelivery = (tenant: Tenant, webhookId: string, deliveryId: string) =>
  getRecord<DeliveryRecord>(webhookKeys.delivery(tenant, webhookId, deliveryId), { consistent: true });

/** Records attempt `attempt` and where the delivery stands, if no one recorded it first. */
export const recordAttempt = (
  delivery: DeliveryRecord,
  attempt: DeliveryAttempt,
  next: { status: DeliveryStatus; nextAttemptAt: string | null },
) =>
  updateIf<DeliveryRecord>(
    webhookKeys.delivery(tenantOf(delivery), delivery.webhookId, delivery.deliveryId),
    {
      set: {
        ...next,
        attemptCount: attempt.attempt,
        attempts: [...delivery.attempts, attempt],
        updatedAt: attempt.at,
      },
    },
    holds({ status: 'pending', attemptCount: attempt.attempt - 1 }),
  );

/** Ends a pending delivery without an attempt (its registration was deactivated). */
export const cancelDelivery = (delivery: DeliveryRecord, now: Date) =>
  updateIf<DeliveryRecord>(
    webhookKeys.delivery(tenantOf(delivery), delivery.webhookId, delivery.deliveryId),
    { set: { status: 'cancelled', nextAttemptAt: null, updatedAt: now.toISOString() } },
    holds({ status: 'pending', attemptCount: delivery.attemptCount }),
  );

/** Makes an ended delivery pending again for one more attempt (its insert-like change re-queues it). */
export const reopenDelivery = (delivery: DeliveryRecord, now: Date) =>
  updateIf<DeliveryRecord>(
    webhookKeys.delivery(tenantOf(delivery), delivery.webhookId, delivery.deliveryId),
    {
      set: {
        status: 'pending',
        finalAttempt: delivery.attemptCount + 1,
        nextAttemptAt: now.toISOString(),
        updatedAt: now.toISOString(),
      },
    },
    holds({ status: delivery.status, attemptCount: delivery.attemptCount }),
  );

export const listDeliveryPage = (tenant: Tenant, webhookId: string, page: Omit<PageRequest, 'binding'>) =>
  queryPage(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: {
        ':pk': tenantScope(tenant),
        ':prefix': webhookKeys.deliveryPrefix(webhookId),
      },
      // Delivery ids are time-ordered: newest first.
      ScanIndexForward: false,
    },
    { ...page, binding: { scope: tenantScope(tenant), query: `webhooks/${webhookId}/deliveries` } },
    (item) => ({ pk: item.pk, sk: item.sk }),
    (item) => recordOf<DeliveryRecord>(item),
  );

export { tenantOf };
