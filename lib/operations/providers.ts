// The provider-notification route (lib/routes.ts receiveProviderNotification): outside the integrator
// surface, its caller a provider whose signature the chain verified on the raw bytes before anything
// read them (lib/providers/authentication.ts). A signed body that is not the provider contract, or a
// notification id already taken (a replay), answers 401 and changes nothing. A verified notification
// moves the record its reference names (lib/payments/ramps/notifications.ts); one whose reference names
// no instruction of ours is acknowledged and ignored, so the provider stops retrying. Bespoke connectors
// add `customer` (the decision on a customer's review, lib/customers) and `receipt` (a customer paid into
// an on-ramp reference, lib/onramp-references/receipts.ts).
import { applyCustomerDecision } from '../customers/standing.ts';
import { ok, operation } from '../http/api-function.ts';
import { unauthorized } from '../http/problem.ts';
import type { Caller } from '../http/types.ts';
import { logger } from '../log.ts';
import { receiveOnrampReceipt } from '../onramp-references/receipts.ts';
import { applyRampNotification } from '../payments/ramps/notifications.ts';
import {
  notificationOf,
  type ProviderNotification,
  providerNotificationBody,
  providerNotificationParams,
} from '../providers/notification-schema.ts';
import { applyOnce, findInstruction } from '../providers/service.ts';
import type { Environment } from '../tenant.ts';

/** The operations of functions/api/providers.ts, by the operation names of lib/routes.ts. */
export const providersOperations = {
  receiveProviderNotification: operation({
    params: providerNotificationParams,
    // For the OpenAPI document: the chain leaves a signed body to the operation (lib/http/json-body.ts).
    body: providerNotificationBody,
    handle: async ({ caller, rawBody, now }) => ok(await receiveProviderNotification(caller, rawBody, now)),
  }),
};

/** Applies a notification whose signature the chain verified: `caller` is the connector that signed it. */
async function receiveProviderNotification(caller: Caller, rawBody: string, now: Date) {
  const { environment, connectorId = '' } = caller;
  const notification = notificationOf(rawBody);
  if (!notification) throw unauthorized('The notification is not one of the provider contract.');
  const applied = await applyOnce(environment, connectorId, notification.notificationId, now, async () => {
    if (notification.kind === 'customer')
      await applyCustomerDecision(
        environment,
        connectorId,
        notification.reference,
        { status: notification.status, reason: notification.reason ?? null },
        now,
      );
    else if (notification.kind === 'receipt')
      await receiveOnrampReceipt(environment, connectorId, notification, now);
    else await applyInstructionNotification(environment, connectorId, notification, now);
  });
  if (!applied) throw unauthorized('This notification was received before: a replay changes nothing.');
  return { received: true as const };
}

async function applyInstructionNotification(
  environment: Environment,
  connectorId: string,
  notification: Extract<ProviderNotification, { kind: 'payout' | 'collection' }>,
  now: Date,
) {
  const instruction = await findInstruction(environment, connectorId, notification.reference);
  if (instruction)
    await applyRampNotification(
      { environment, associationId: instruction.associationId },
      instruction.transactionRecordId,
      { ...notification, reason: notification.reason ?? null },
      now,
    );
  else
    logger.warn('Provider notification for no instruction of ours', {
      connectorId,
      reference: notification.reference,
    });
}
