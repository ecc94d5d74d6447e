// The provider-notification route (lib/routes.ts receiveProviderNotification): outside the integrator
// surface, authenticated by the connector secret's signature alone (signature.ts). A missing, forged or
// stale signature, or a notification id already taken (a replay), answers 401 and changes nothing. A
// verified notification moves the record its reference names (lib/payments/ramps.ts); one whose
// reference names no instruction of ours is acknowledged and ignored, so the provider stops retrying.
// Bespoke connectors add `customer` (the decision on a customer's review, lib/customers) and `receipt`
// (a customer paid into an on-ramp reference, lib/onramp/receipts.ts).
import { applyCustomerDecision } from '../customers/standing.ts';
import { unauthorized } from '../http/problem.ts';
import { PROVIDER_NOTIFICATION_LIMIT, scaled } from '../limits/policies.ts';
import { admit } from '../limits/service.ts';
import { logger } from '../log.ts';
import { receiveOnrampReceipt } from '../onramp/receipts.ts';
import { applyRampNotification } from '../payments/ramp-notifications.ts';
import type { Environment } from '../tenant.ts';
import * as z from '../zod.ts';
import { INSTRUCTION_STATUSES, type InstructionStatus } from './contract.ts';
import {
  findInstruction,
  findProviderSecret,
  giveBackNotificationId,
  notificationApplied,
  takeNotificationId,
} from './repo.ts';
import { verifyNotificationSignature } from './signature.ts';

export const providerNotificationParams = z.strictObject({
  environment: z.enum(['sandbox', 'production']),
  connectorId: z.string().check(z.regex(/^[a-z0-9-]{1,64}$/, 'must be a connector id')),
});

const id = z.string().check(z.minLength(1), z.maxLength(128));
const reason = z.optional(z.nullable(z.string().check(z.maxLength(500))));

export const providerNotificationBody = z.discriminatedUnion('kind', [
  z.object({
    notificationId: id,
    kind: z.enum(['payout', 'collection']),
    reference: id,
    providerReference: id,
    status: z.enum(INSTRUCTION_STATUSES as [InstructionStatus, ...InstructionStatus[]]),
    reason,
  }),
  z.object({
    notificationId: id,
    kind: z.literal('receipt'),
    receiptId: id,
    reference: id,
    amount: z.string().check(z.regex(/^\d{1,15}(\.\d{1,7})?$/, 'must be a decimal amount')),
    currency: z.string().check(z.regex(/^[A-Z]{3}$/, 'must be a currency code')),
  }),
  z.object({
    notificationId: id,
    kind: z.literal('customer'),
    reference: id,
    status: z.enum(['verified', 'rejected']),
    reason,
  }),
]);

/** The one answer to anything unsigned, forged or stale: fixed, and a few hundred bytes at most. */
const BAD_SIGNATURE = 'Not signed with this connector’s secret, or stale.';

/** The body as the provider contract has it, or undefined (not JSON, or not the contract). */
function notificationOf(rawBody: string) {
  try {
    const parsed = providerNotificationBody.safeParse(JSON.parse(rawBody));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function receiveProviderNotification(
  environment: Environment,
  connectorId: string,
  rawBody: string,
  signature: string | undefined,
  now: Date,
) {
  // The signature on the raw bytes before anything reads them (the chain parsed nothing: json-body.ts).
  // A connector with no secret (or no connector at all) has nothing a signature could be checked with.
  const secret = await findProviderSecret(environment, connectorId);
  if (!secret || !verifyNotificationSignature(secret, signature, rawBody, now))
    throw unauthorized(BAD_SIGNATURE);
  // Then the connector's own window: only what its provider signed can spend it.
  await admit(
    'notifications',
    `connector#${environment}#${connectorId}`,
    scaled(PROVIDER_NOTIFICATION_LIMIT),
    now,
  );
  const notification = notificationOf(rawBody);
  if (!notification) throw unauthorized('The notification is not one of the provider contract.');
  // The id is taken before anything is applied, in one conditional write: of copies arriving together
  // one takes it and is applied, the others are replays. Given back if applying it fails, and taken
  // again if its taker died applying it (repo.ts), so that the provider's retry is applied.
  if (!(await takeNotificationId(environment, connectorId, notification.notificationId, now)))
    throw unauthorized('This notification was received before: a replay changes nothing.');
  try {
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
    await notificationApplied(environment, connectorId, notification.notificationId, now);
  } catch (error) {
    await giveBackNotificationId(environment, connectorId, notification.notificationId, now);
    throw error;
  }
  return { received: true as const };
}

async function applyInstructionNotification(
  environment: Environment,
  connectorId: string,
  notification: Extract<z.infer<typeof providerNotificationBody>, { kind: 'payout' | 'collection' }>,
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
