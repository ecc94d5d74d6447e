// Webhook registrations (docs/decisions/webhook-registrations.md) and their deliveries log. A registration is
// active until deleted, then deactivated for good (kept for history; deliveries stop at once, retries
// in flight included: the delivery worker reads the registration before every attempt). A URL has one
// active registration per tenant: a second would only send every event to it twice (409 names the
// first). Redeliveries and test events are counted per registration, REDELIVERIES_PER_MINUTE at most
// together (429 past them), so asking again and again cannot turn the gateway into a source of load on
// a receiver.
import { randomUUID } from 'node:crypto';
import { webhookKeys } from '../db/keys.ts';
import { countInWindow } from '../db/window-count.ts';
import { type FieldError, notFound, Problem, tooManyRequests, unprocessable } from '../http/problem.ts';
import { open, type SealedSecret, seal } from '../secret-box.ts';
import type { Environment, Tenant } from '../tenant.ts';
import { ALL_EVENTS, isEventType } from './catalogue.ts';
import { assertReachable, parseWebhookUrl, UrlRefused, urlPolicyFor } from './destinations.ts';
import { dispatchTestEvent } from './dispatch.ts';
import {
  attemptsOf,
  type DeliveryRecord,
  deactivateRegistration,
  findDelivery,
  findRegistration,
  listDeliveryPage,
  listRegistrationPage,
  listResourceDeliveryPage,
  putRegistration,
  reopenDelivery,
  type WebhookRecord,
} from './repo.ts';
import { toDeliveryResource, toWebhookResource } from './responses.ts';
import type { CreateWebhook } from './schema.ts';
import { newWebhookSecret } from './signing.ts';

/** Redeliveries and test events a registration may ask for in a minute (a fixed window); more answer 429. */
export const REDELIVERIES_PER_MINUTE = 5;

/** Active registrations an association may hold: enough for every environment of every system it runs. */
export const MAX_ACTIVE_WEBHOOKS = 20;

/** What the secret is sealed for: a sealed secret copied onto another registration does not open. */
const secretOwner = (webhookId: string) => `webhook:${webhookId}`;

/** Sealed under the KEK of the registration's environment. */
export async function sealWebhookSecret(
  environment: Environment,
  webhookId: string,
  secret: string,
): Promise<SealedSecret> {
  return seal(environment, secretOwner(webhookId), Buffer.from(secret, 'utf8'));
}

export async function openWebhookSecret(record: WebhookRecord): Promise<string> {
  const opened = await open(record.environment, secretOwner(record.webhookId), record.sealedSecret);
  try {
    return opened.toString('utf8');
  } finally {
    opened.fill(0);
  }
}

function checkedEvents(events: string[]): string[] {
  const errors: FieldError[] = events.flatMap((name, i) =>
    name === ALL_EVENTS || isEventType(name)
      ? []
      : [
          {
            field: `events.${i}`,
            message: `${name} is not an event type (see the catalogue in the API reference’s Webhooks tag)`,
          },
        ],
  );
  if (events.includes(ALL_EVENTS) && events.length > 1)
    errors.push({ field: 'events', message: '"*" already subscribes to every type: send it alone' });
  if (errors.length) throw unprocessable('Unknown event types.', errors);
  return [...new Set(events)];
}

async function checkedUrl(tenant: Tenant, value: string): Promise<string> {
  const policy = urlPolicyFor(tenant.environment);
  try {
    const url = parseWebhookUrl(value, policy);
    await assertReachable(url, policy);
    return url.toString();
  } catch (error) {
    if (!(error instanceof UrlRefused)) throw error;
    throw unprocessable('The webhook URL cannot be used.', [{ field: 'url', message: error.message }]);
  }
}

export async function createWebhook(tenant: Tenant, input: CreateWebhook, now: Date) {
  const events = checkedEvents(input.events);
  const url = await checkedUrl(tenant, input.url);
  const webhookId = randomUUID();
  const secret = newWebhookSecret();
  const record: WebhookRecord = {
    webhookId,
    environment: tenant.environment,
    associationId: tenant.associationId,
    url,
    events,
    description: input.description ?? null,
    status: 'active',
    sealedSecret: await sealWebhookSecret(tenant.environment, webhookId, secret),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    deactivatedAt: null,
  };
  const written = await putRegistration(record, MAX_ACTIVE_WEBHOOKS);
  if (written.outcome === 'limit')
    throw unprocessable('Too many webhooks.', [
      {
        field: 'url',
        message: `an association holds at most ${MAX_ACTIVE_WEBHOOKS} active webhooks: delete one first`,
      },
    ]);
  if (written.outcome === 'url')
    throw new Problem(409, 'A webhook for this URL is active already.', {
      errors: [
        {
          field: 'url',
          message: `webhook ${written.heldBy} is registered for ${url}: change its events by deleting it and registering again`,
        },
      ],
    });
  return { ...toWebhookResource(record), secret };
}

async function registrationOrNotFound(tenant: Tenant, webhookId: string): Promise<WebhookRecord> {
  const record = await findRegistration(tenant, webhookId, { consistent: true });
  if (!record) throw notFound(`No webhook ${webhookId}.`);
  return record;
}

export async function getWebhook(tenant: Tenant, webhookId: string) {
  return toWebhookResource(await registrationOrNotFound(tenant, webhookId));
}

export async function listWebhooks(tenant: Tenant, page: { limit: number; cursor?: string | undefined }) {
  const found = await listRegistrationPage(tenant, page);
  return { data: found.data.map(toWebhookResource), pagination: found.pagination };
}

/** Deactivates the registration; deleting one already deactivated answers it as it is (idempotent). */
export async function deleteWebhook(tenant: Tenant, webhookId: string, now: Date) {
  await deactivateRegistration(tenant, await registrationOrNotFound(tenant, webhookId), now);
  return toWebhookResource(await registrationOrNotFound(tenant, webhookId));
}

const deliveryResource = async (delivery: DeliveryRecord) =>
  toDeliveryResource(delivery, await attemptsOf(delivery));

export async function listDeliveries(
  tenant: Tenant,
  webhookId: string,
  page: { limit: number; cursor?: string | undefined },
) {
  await registrationOrNotFound(tenant, webhookId);
  const found = await listDeliveryPage(tenant, webhookId, page);
  return { data: await Promise.all(found.data.map(deliveryResource)), pagination: found.pagination };
}

/** The deliveries about one resource (a transaction record, a wallet, a destination), newest first. */
export async function listResourceDeliveries(
  tenant: Tenant,
  resourceId: string,
  page: { limit: number; cursor?: string | undefined },
) {
  const found = await listResourceDeliveryPage(tenant, resourceId, page);
  return { data: await Promise.all(found.data.map(deliveryResource)), pagination: found.pagination };
}

function assertActive(registration: WebhookRecord): void {
  if (registration.status !== 'active')
    throw new Problem(409, 'The webhook is deactivated: nothing is delivered to it any more.');
}

/** Counts a redelivery or test event in the registration's window; 429 when this minute's are used. */
async function countInRedeliverWindow(tenant: Tenant, webhookId: string, now: Date): Promise<void> {
  const wait = await countInWindow(
    (start) => webhookKeys.redeliverWindow(tenant, webhookId, start),
    REDELIVERIES_PER_MINUTE,
    60,
    now,
  );
  if (wait !== null) throw tooManyRequests(wait);
}

/**
 * One more attempt of an ended delivery (delivered, failed or cancelled), to an active registration; a
 * delivery still pending is answered as it is.
 */
export async function redeliver(tenant: Tenant, webhookId: string, deliveryId: string, now: Date) {
  const registration = await registrationOrNotFound(tenant, webhookId);
  const delivery = await findDelivery(tenant, webhookId, deliveryId);
  if (!delivery) throw notFound(`No delivery ${deliveryId} for this webhook.`);
  assertActive(registration);
  // Still being attempted: its next attempt is already coming, which is what was asked for.
  if (delivery.status === 'pending') return deliveryResource(delivery);
  await countInRedeliverWindow(tenant, webhookId, now);
  const reopened = await reopenDelivery(delivery, now);
  if (reopened.outcome !== 'written')
    throw new Problem(
      409,
      'The delivery changed meanwhile; read it again before asking for another attempt.',
    );
  return deliveryResource(reopened.record);
}

/** A signed `webhook.test` event to an active registration, delivered as every event is. */
export async function sendTestEvent(tenant: Tenant, webhookId: string, now: Date) {
  const registration = await registrationOrNotFound(tenant, webhookId);
  assertActive(registration);
  await countInRedeliverWindow(tenant, webhookId, now);
  return toDeliveryResource(await dispatchTestEvent(registration, now), []);
}
