// Fan-out (the webhook-dispatcher worker): one event → one delivery per active registration of its
// association subscribed to its type. Each delivery is written once (its id names the registration and
// the event), pending; its insert asks the delivery worker for the first attempt (through the outbox).
// A redelivered event finds its deliveries written and adds none.
import { plainJson } from '../http/plain-json.ts';
import { timeOrderedNameBasedId } from '../ids.ts';
import { logger } from '../log.ts';
import { logKeysOf } from '../outbox.ts';
import type { Tenant } from '../tenant.ts';
import { annotate } from '../trace.ts';
import { subscribes } from './catalogue.ts';
import { eventDataOf, eventMetaDataOf } from './event-data.ts';
import type { EventMessage } from './event-message.ts';
import { activeRegistrations, type DeliveryRecord, putDelivery } from './repo.ts';
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

export async function dispatchEvent(message: EventMessage, now: Date): Promise<number> {
  const tenant: Tenant = { environment: message.environment, associationId: message.associationId };
  const registrations = (await activeRegistrations(tenant)).filter((r) => subscribes(r.events, message.type));
  if (registrations.length === 0) return 0;
  // Amounts in plain decimals (0.0000005, never 5e-7), as the API writes them.
  const payload = plainJson(envelopeOf(message));
  let written = 0;
  for (const registration of registrations) {
    const delivery: DeliveryRecord = {
      deliveryId: timeOrderedNameBasedId(
        NAMESPACE,
        `${registration.webhookId}/${message.eventId}`,
        Date.parse(message.createdAt),
      ),
      webhookId: registration.webhookId,
      environment: message.environment,
      associationId: message.associationId,
      eventId: message.eventId,
      eventType: message.type,
      payload,
      status: 'pending',
      attemptCount: 0,
      finalAttempt: MAX_ATTEMPTS,
      nextAttemptAt: now.toISOString(),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    if ((await putDelivery(delivery)).outcome === 'written') written += 1;
  }
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
