// What SES reports of a sent notice, through the configuration set's event destination (EventBridge,
// infra/constructs/notices.ts, whose rule invokes functions/events/ses-feedback.ts): a permanent bounce or a
// complaint marks the address, so later notices to it are `skipped` with the reason, and the record
// whose notice it was (named by the message's tags, lib/notifications/email.ts) says `bounced`.
// A transient bounce (a full mailbox) marks nothing: SES retried it already, and the next may arrive.
import { tenantOf } from '../db/keys.ts';
import { logger } from '../log.ts';
import { recordNotification } from '../payments/notifier.ts';
import * as z from '../zod.ts';
import { suppressAddress } from './repo.ts';

const recipients = z.array(z.object({ emailAddress: z.string() }));

/** SES event publishing's Bounce and Complaint events (other event types are ignored). */
export const sesEvent = z.object({
  eventType: z.optional(z.string()),
  /** Identity notifications (the older feedback path) name it so. */
  notificationType: z.optional(z.string()),
  bounce: z.optional(
    z.object({ bounceType: z.string(), bouncedRecipients: recipients, timestamp: z.string() }),
  ),
  complaint: z.optional(z.object({ complainedRecipients: recipients, timestamp: z.string() })),
  mail: z.object({
    messageId: z.string(),
    tags: z.optional(z.record(z.string(), z.array(z.string()))),
  }),
});

export type SesEvent = z.infer<typeof sesEvent>;

const tag = (event: SesEvent, name: string) => event.mail.tags?.[name]?.[0];

export async function applySesEvent(event: SesEvent, now: Date): Promise<void> {
  const kind = event.eventType ?? event.notificationType;
  const marked =
    kind === 'Bounce' && event.bounce?.bounceType === 'Permanent'
      ? { cause: 'bounced' as const, at: event.bounce.timestamp, addresses: event.bounce.bouncedRecipients }
      : kind === 'Complaint' && event.complaint
        ? {
            cause: 'complained' as const,
            at: event.complaint.timestamp,
            addresses: event.complaint.complainedRecipients,
          }
        : null;
  if (!marked) return;
  for (const { emailAddress } of marked.addresses)
    await suppressAddress({ channel: 'email', address: emailAddress, cause: marked.cause, at: marked.at });
  const environment = tag(event, 'environment');
  const associationId = tag(event, 'associationId');
  const transactionRecordId = tag(event, 'transactionRecordId');
  if ((environment !== 'sandbox' && environment !== 'production') || !associationId || !transactionRecordId) {
    logger.warn('SES feedback for a message without our tags', { messageId: event.mail.messageId });
    return;
  }
  await recordNotification(
    tenantOf({ environment, associationId }),
    transactionRecordId,
    { status: 'bounced', reason: `The address ${marked.cause} on ${marked.at}.` },
    now,
  );
}
