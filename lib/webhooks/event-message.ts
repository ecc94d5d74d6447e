// The message a change that makes an event puts on the webhook-events queue (through the outbox,
// lib/outbox.ts): the event's identity and the item as written. The dispatcher turns the item into the
// resource the API returns (`data`) and fans the event out to the registrations subscribed to it.
import * as z from '../zod.ts';
import { EVENT_SOURCES } from './catalogue.ts';

export const eventMessage = z.object({
  /** Stable across every redelivery of the change: receivers dedupe on it. */
  eventId: z.uuid(),
  type: z.string().check(z.minLength(1), z.maxLength(64)),
  source: z.enum(EVENT_SOURCES),
  /** When the change was written (the item's updatedAt). */
  createdAt: z.iso.datetime(),
  environment: z.enum(['sandbox', 'production']),
  associationId: z.string().check(z.minLength(1), z.maxLength(128)),
  /** The item's entity type (lib/db/entity.ts) and its new image, unmarshalled. */
  itemType: z.string(),
  item: z.record(z.string(), z.unknown()),
});

export type EventMessage = z.infer<typeof eventMessage>;
