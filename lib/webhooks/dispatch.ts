// Fan-out (the webhook-dispatcher worker): one event → one delivery per active registration of its
// association subscribed to its type. Each delivery is written once (its id names the registration and
// the event), pending; its insert asks the delivery worker for the first attempt (through the outbox).
// A redelivered event finds its deliveries written and adds none. Each delivery's entry under the
// resource the event is about goes first, all of them in one batch: the resource's page lists them.
// The registrations are read once per tenant and batch of events (batchRegistrations).
import { randomUUID } from 'node:crypto';
import { tenantScope } from '../db/keys.ts';
import { plainJson } from '../http/plain-json.ts';
import { timeOrderedNameBasedId } from '../ids.ts';
import { logger } from '../log.ts';
import { logKeysOf } from '../outbox.ts';
import type { Tenant } from '../tenant.ts';
import { annotate } from '../trace.ts';
import { subscribes, TEST_EVENT } from './catalogue.ts';
import { eventDataOf, eventMetaDataOf, resourceIdOf } from './event-data.ts';
import type { EventMessage } from './event-message.ts';
import {
  activeRegistrations,
  type DeliveryRecord,
  putDelivery,
  putDeliveryLinks,
  type WebhookRecord,
} from './repo.ts';
import { MAX_ATTEMPTS } from './schedule.ts';

/** This service's namespace for delivery ids (fixed forever). */
const NAMESPACE = '7c2d9e4f-1a3b-4c5d-8e6f-9a0b1c2d3e4f';

/** What receivers get (the API reference's Webhooks tag: the event envelope): the same bytes at every attempt. */
export function envelopeOf(message: EventMessage) {
  return {
    id: message.eventId,
    type: message.type,
    createdAt: message.createdAt,
    source: message.source,
    data: eventDataOf(message),
    metaData: { environment: message.environment, ...eventMetaDataOf(message) },
  };
}

/** A registration's delivery of an event, pending its first attempt (its insert asks for it). */
function newDelivery(
  webhookId: string,
  event: Pick<EventMessage, 'eventId' | 'type' | 'createdAt' | 'environment' | 'associationId'>,
  payload: string,
  now: Date,
): DeliveryRecord {
  return {
    deliveryId: timeOrderedNameBasedId(
      NAMESPACE,
      `${webhookId}/${event.eventId}`,
      Date.parse(event.createdAt),
    ),
    webhookId,
    environment: event.environment,
    associationId: event.associationId,
    eventId: event.eventId,
    eventType: event.type,
    payload,
    status: 'pending',
    attemptCount: 0,
    finalAttempt: MAX_ATTEMPTS,
    nextAttemptAt: now.toISOString(),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
}

/** Reads a tenant's active registrations (strongly consistent, as activeRegistrations does). */
export type RegistrationReader = (tenant: Tenant) => Promise<WebhookRecord[]>;

/**
 * A reader for one batch of events: each tenant's registrations read once, by the first of its events,
 * and shared by the others, which are handled side by side with it (a burst of one tenant's payments
 * comes as batches of its events). Nothing is kept past the batch: the next one reads them again.
 */
export function batchRegistrations(): RegistrationReader {
  const read = new Map<string, Promise<WebhookRecord[]>>();
  return (tenant) => {
    const scope = tenantScope(tenant);
    let registrations = read.get(scope);
    if (!registrations) {
      registrations = activeRegistrations(tenant);
      read.set(scope, registrations);
    }
    return registrations;
  };
}

export async function dispatchEvent(
  message: EventMessage,
  now: Date,
  registrationsOf: RegistrationReader = activeRegistrations,
): Promise<number> {
  const tenant: Tenant = { environment: message.environment, associationId: message.associationId };
  const registrations = (await registrationsOf(tenant)).filter((r) => subscribes(r.events, message.type));
  if (registrations.length === 0) return 0;
  // Amounts in plain decimals (0.0000005, never 5e-7), as the API writes them.
  const payload = plainJson(envelopeOf(message));
  const deliveries = registrations.map((registration) =>
    newDelivery(registration.webhookId, message, payload, now),
  );
  const resourceId = resourceIdOf(message);
  if (resourceId)
    await putDeliveryLinks(
      deliveries.map(({ webhookId, deliveryId }) => ({ ...tenant, resourceId, webhookId, deliveryId })),
    );
  let written = 0;
  for (const delivery of deliveries) if ((await putDelivery(delivery)).outcome === 'written') written += 1;
  // In the line, not the logger's keys: the dispatcher fans events out side by side (each its own subsegment).
  const keys = logKeysOf(message.item);
  annotate(keys);
  logger.info('Webhook event fanned out', {
    eventId: message.eventId,
    type: message.type,
    deliveries: written,
    ...keys,
  });
  return written;
}

/**
 * A `webhook.test` event for one registration, whatever its events, through the same path as every
 * other: a delivery written pending, attempted, signed and retried by the delivery worker. Its `data`
 * names the registration; nothing else happened, so it is about no resource.
 */
export async function dispatchTestEvent(registration: WebhookRecord, now: Date): Promise<DeliveryRecord> {
  const event = {
    eventId: randomUUID(),
    type: TEST_EVENT,
    createdAt: now.toISOString(),
    environment: registration.environment,
    associationId: registration.associationId,
  };
  const payload = plainJson({
    id: event.eventId,
    type: event.type,
    createdAt: event.createdAt,
    source: 'webhooks',
    data: {
      webhookId: registration.webhookId,
      message: 'A test event, sent on request: no payment or other resource changed.',
    },
    metaData: { environment: registration.environment },
  });
  const delivery = newDelivery(registration.webhookId, event, payload, now);
  await putDelivery(delivery); // a fresh event id: no delivery holds it yet
  return delivery;
}
