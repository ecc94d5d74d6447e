// Webhook registrations and deliveries: tenant-owned items (lib/db/keys.ts webhookKeys). A registration
// moves active → deactivated once, together with the count of active ones and the item that keeps its
// URL to it (one transaction each way). A delivery is written once per (registration, event), pending,
// and each attempt updates it conditionally on the attempt it follows, so two workers holding the same
// message record one attempt. The attempt that delivers is kept on the delivery itself (`lastAttempt`),
// in that one conditional update: a delivery that succeeds at once costs one write, not a transaction.
// Every other attempt is an item of its own, written in one transaction with the update (which also
// writes out an attempt kept on the delivery before a redelivery, and drops the attempt KEPT_ATTEMPTS
// before): the log keeps a delivery's last attempts, whatever their number, and no item grows with them. A delivery about a resource (a transaction record, a wallet…) has
// an entry under that resource too, written before it, so the resource's deliveries are one query away.
import { createHash } from 'node:crypto';
import { absentOrBelow, absentOrHolds, holds } from '../db/conditions.ts';
import { entity, recordOf } from '../db/entity.ts';
import {
  createIfAbsent,
  getItems,
  getRecord,
  putAll,
  readAllPages,
  type TransactionOutcome,
  type TransactionWrite,
  transact,
  updateIf,
  type Written,
} from '../db/items.ts';
import { tenantOf, tenantScope, webhookKeys } from '../db/keys.ts';
import { type PageRequest, tenantRecordPage, underPrefix } from '../db/paginate.ts';
import type { SealedSecret } from '../secret-box.ts';
import type { Environment, Tenant } from '../tenant.ts';
import type { AttemptError } from './attempt-errors.ts';
import { KEPT_ATTEMPTS } from './schedule.ts';

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
  /** Why no answer came, as a category only (lib/webhooks/destinations.ts AttemptError). */
  error: AttemptError | null;
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
  /** ISO time of the next attempt while pending; null once the delivery ended. */
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
  /**
   * The attempt that delivered it, kept here rather than as an item of its own (recordAttempt); written
   * out as an item when a redelivery's attempt follows it.
   */
  lastAttempt?: DeliveryAttempt;
}

/** An attempt as stored: an item of its own, under its delivery. */
export interface AttemptRecord extends DeliveryAttempt {
  environment: Environment;
  associationId: string;
  webhookId: string;
  deliveryId: string;
}

export const webhookEntity = entity<WebhookRecord>({
  type: 'webhook',
  keyOf: (record) => webhookKeys.registration(tenantOf(record), record.webhookId),
});

export const deliveryEntity = entity<DeliveryRecord>({
  type: 'webhookDelivery',
  keyOf: (record) => webhookKeys.delivery(tenantOf(record), record.webhookId, record.deliveryId),
});

const attemptEntity = entity<AttemptRecord>({
  type: 'webhookAttempt',
  keyOf: (record) =>
    webhookKeys.attempt(tenantOf(record), record.webhookId, record.deliveryId, record.attempt),
});

/**
 * A delivery's entry under the resource its event is about: ids only (one write unit), written once,
 * before its delivery, so a delivery is always found by its resource; an entry whose delivery was never
 * written (a fan-out that stopped between them) finds none and is skipped.
 */
export interface DeliveryLink {
  environment: Environment;
  associationId: string;
  resourceId: string;
  webhookId: string;
  deliveryId: string;
}

const deliveryLinkEntity = entity<DeliveryLink>({
  type: 'webhookDeliveryLink',
  keyOf: (link) => webhookKeys.resourceDelivery(tenantOf(link), link.resourceId, link.deliveryId),
});

/** The item that holds a URL for its one active registration. */
interface UrlHolder {
  environment: Environment;
  associationId: string;
  webhookId: string;
}

const urlHolderEntity = entity<UrlHolder & { url: string }>({
  type: 'webhookUrl',
  keyOf: (record) => urlKey(tenantOf(record), record.url),
});

const urlKey = (tenant: Tenant, url: string) =>
  webhookKeys.url(tenant, createHash('sha256').update(url).digest('hex'));

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

/**
 * Writes a registration if the tenant has fewer than `limit` active ones and none active for its URL:
 * `limit` when it has that many, `url` (with the holder's id) when its URL is taken.
 */
export async function putRegistration(
  record: WebhookRecord,
  limit: number,
): Promise<{ outcome: 'written' | 'limit' } | { outcome: 'url'; heldBy: string }> {
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
    {
      put: {
        entity: urlHolderEntity as never,
        record: {
          environment: record.environment,
          associationId: record.associationId,
          webhookId: record.webhookId,
          url: record.url,
        },
        condition: { expression: 'attribute_not_exists(pk)' },
      },
    },
  ]);
  if (written.outcome === 'written') return { outcome: 'written' };
  const holder = written.reasons[2];
  if (holder?.code === 'ConditionalCheckFailed')
    return { outcome: 'url', heldBy: (holder.current as UrlHolder | undefined)?.webhookId ?? '' };
  if (written.reasons[1]?.code === 'ConditionalCheckFailed') return { outcome: 'limit' };
  throw new Error(`Webhook ${record.webhookId} could not be written: ${JSON.stringify(written.reasons)}`);
}

export const findRegistration = (tenant: Tenant, webhookId: string, options: { consistent?: boolean } = {}) =>
  getRecord<WebhookRecord>(webhookKeys.registration(tenant, webhookId), options);

/**
 * Deactivates an active registration, counts it out and frees its URL; false when it was not active
 * (missing, or deactivated already); throws when it could not be written (never reported as not active).
 */
export async function deactivateRegistration(
  tenant: Tenant,
  { webhookId, url }: Pick<WebhookRecord, 'webhookId' | 'url'>,
  now: Date,
): Promise<boolean> {
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
    // Its own holder only (a registration made before URLs were held has none).
    { delete: { key: urlKey(tenant, url), condition: absentOrHolds({ webhookId }) } },
  ]);
  if (written.outcome === 'written') return true;
  if (written.reasons[0]?.code === 'ConditionalCheckFailed') return false;
  throw new Error(`Webhook ${webhookId} could not be deactivated: ${JSON.stringify(written.reasons)}`);
}

export const listRegistrationPage = (tenant: Tenant, page: Omit<PageRequest, 'binding'>) =>
  tenantRecordPage<WebhookRecord>(
    tenant,
    underPrefix(tenantScope(tenant), webhookKeys.registrationPrefix),
    'webhooks',
    page,
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

/** Writes the entries of an event's deliveries under its resource (put twice is put once). */
export const putDeliveryLinks = (links: DeliveryLink[]): Promise<void> => putAll(deliveryLinkEntity, links);

/** Writes a delivery once: a second fan-out of the same event finds it there. */
export const putDelivery = (record: DeliveryRecord): Promise<Written<DeliveryRecord>> =>
  createIfAbsent(deliveryEntity, record);

export const findDelivery = (tenant: Tenant, webhookId: string, deliveryId: string) =>
  getRecord<DeliveryRecord>(webhookKeys.delivery(tenant, webhookId, deliveryId), { consistent: true });

/**
 * A delivery and its registration as they are now (strongly consistent), in one request: what an attempt
 * reads before it is made.
 */
export async function findDeliveryAndRegistration(
  tenant: Tenant,
  webhookId: string,
  deliveryId: string,
): Promise<{ delivery: DeliveryRecord | undefined; registration: WebhookRecord | undefined }> {
  const [delivery, registration] = await getItems(
    [webhookKeys.delivery(tenant, webhookId, deliveryId), webhookKeys.registration(tenant, webhookId)],
    { consistent: true },
  );
  return {
    delivery: recordOf<DeliveryRecord>(delivery),
    registration: recordOf<WebhookRecord>(registration),
  };
}

/**
 * Records attempt `attempt` and where the delivery stands, if no one recorded it first, `delivery` being
 * the record as read: an attempt that delivers it is kept on it (one conditional update); any other is an
 * item of its own, in one transaction with the update, which also writes out the attempt the delivery
 * kept (it delivered before a redelivery) and drops the one KEPT_ATTEMPTS before.
 */
export async function recordAttempt(
  delivery: DeliveryRecord,
  attempt: DeliveryAttempt,
  next: { status: DeliveryStatus; nextAttemptAt: string | null },
): Promise<{ outcome: 'written' | 'taken' }> {
  const tenant = tenantOf(delivery);
  const { webhookId, deliveryId } = delivery;
  const key = webhookKeys.delivery(tenant, webhookId, deliveryId);
  const kept = next.status === 'delivered';
  const changes = {
    set: {
      ...next,
      attemptCount: attempt.attempt,
      updatedAt: attempt.at,
      ...(kept ? { lastAttempt: attempt } : {}),
    },
    ...(!kept && delivery.lastAttempt ? { remove: ['lastAttempt'] } : {}),
  };
  const condition = holds({ status: 'pending', attemptCount: attempt.attempt - 1 });
  const items = [...(delivery.lastAttempt ? [delivery.lastAttempt] : []), ...(kept ? [] : [attempt])];
  const dropped = attempt.attempt - KEPT_ATTEMPTS;
  const others: TransactionWrite[] = [
    ...items.map((one) => ({
      put: { entity: attemptEntity as never, record: { ...tenant, webhookId, deliveryId, ...one } },
    })),
    ...(dropped > 0
      ? [{ delete: { key: webhookKeys.attempt(tenant, webhookId, deliveryId, dropped) } }]
      : []),
  ];
  if (others.length === 0) {
    const updated = await updateIf<DeliveryRecord>(key, changes, condition);
    return { outcome: updated.outcome === 'written' ? 'written' : 'taken' };
  }
  const written = await transact([{ update: { key, changes, condition } }, ...others]);
  if (written.outcome === 'written') return { outcome: 'written' };
  if (written.reasons[0]?.code === 'ConditionalCheckFailed') return { outcome: 'taken' };
  throw new Error(
    `Attempt ${attempt.attempt} of ${deliveryId} could not be written: ${JSON.stringify(written.reasons)}`,
  );
}

/** The delivery's kept attempts, oldest first: its items, and the one kept on the delivery. */
export const attemptsOf = async (delivery: DeliveryRecord): Promise<DeliveryAttempt[]> => {
  const items = (
    await readAllPages<AttemptRecord>({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: {
        ':pk': tenantScope(tenantOf(delivery)),
        ':prefix': webhookKeys.attemptPrefix(delivery.webhookId, delivery.deliveryId),
      },
      ConsistentRead: true,
    })
  ).map(({ attempt, at, statusCode, error, latencyMs, responseExcerpt }) => ({
    attempt,
    at,
    statusCode,
    error,
    latencyMs,
    responseExcerpt,
  }));
  const last = delivery.lastAttempt;
  return last && !items.some((item) => item.attempt === last.attempt) ? [...items, last] : items;
};

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
  tenantRecordPage<DeliveryRecord>(
    tenant,
    {
      ...underPrefix(tenantScope(tenant), webhookKeys.deliveryPrefix(webhookId)),
      // Delivery ids are time-ordered: newest first.
      ScanIndexForward: false,
    },
    `webhooks/${webhookId}/deliveries`,
    page,
  );

/** The deliveries about a resource, newest first, whichever registration they went to. */
export const listResourceDeliveryPage = (
  tenant: Tenant,
  resourceId: string,
  page: Omit<PageRequest, 'binding'>,
) =>
  tenantRecordPage<DeliveryRecord>(
    tenant,
    {
      ...underPrefix(tenantScope(tenant), webhookKeys.resourceDeliveryPrefix(resourceId)),
      // Delivery ids are time-ordered: newest first.
      ScanIndexForward: false,
    },
    `webhooks/deliveries?${resourceId}`,
    page,
    {
      records: (links) =>
        getItems(
          links.map((link) => webhookKeys.delivery(tenant, String(link.webhookId), String(link.deliveryId))),
        ),
      accept: () => true,
    },
  );

export { tenantOf };
