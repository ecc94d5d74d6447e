// Telling a beneficiary that a payment reached them (the payment-notifier worker). One message per
// completed record that asked for it (lib/outbox.ts), sent once by its event id however often the stream
// or the queue delivers it: the notice item is claimed before the send and ended after it (repo.ts). An
// address that bounced or complained before is not sent to: the notice is `skipped`, and the record says
// why. In the sandbox, a recipient nobody verified is never sent to (recipient-rule.ts), and what is
// sent says TEST; in every environment a tenant's notices stop at its daily cap (daily-cap.ts). A channel
// that fails is tried again with a growing delay (the message re-queued); after MAX_ATTEMPTS the notice
// and the record say `failed` and the message fails every receive until its queue's redrive policy
// dead-letters it (alarmed), as a webhook delivery does. The payment itself is never touched: it
// completed before any of this began.
//
// A worker that dies between the channel's answer and the write of `sent` leaves a claim that expires
// (CLAIM_SECONDS): the next delivery sends again. That window (milliseconds) is the only way a notice
// goes out twice.
import { sendToQueue } from '../aws/queues.ts';
import { config } from '../config.ts';
import { tenantOf } from '../db/keys.ts';
import { logger } from '../log.ts';
import { countNoticeHeld } from '../metrics.ts';
import { paymentNoticeOf, recordNotification } from '../payments/notifier.ts';
import type { Channel } from './channels.ts';
import { countTowardsDailyCap, dailyCapReason } from './daily-cap.ts';
import { emailChannel } from './email.ts';
import type { NoticeMessage } from './message.ts';
import { mayReceive, RECIPIENT_NOT_VERIFIED } from './recipient-rule.ts';
import { claimNotice, findSuppressed, type NoticeChannel, settleNotice, skipNotice } from './repo.ts';
import { renderNotice } from './templates.ts';
import { whatsAppChannel } from './whatsapp.ts';

const NOTICE_QUEUE = 'payment-notifications';
/** Seconds to wait after attempt n (the index) before attempt n + 1. */
const BACKOFF_SECONDS = [5, 30, 120, 600];
export const MAX_ATTEMPTS = BACKOFF_SECONDS.length + 1;
/** A claim outlasts the worker's timeout (lib/queues.ts), so only a dead worker's claim expires. */
const CLAIM_SECONDS = 60;

/**
 * Thrown on every receive of an event whose notice failed for good: the message is never deleted, so
 * the queue's redrive policy moves it to the alarmed dead-letter queue.
 */
export class NoticeFailed extends Error {
  override name = 'NoticeFailed';
}

const channels: Record<NoticeChannel, () => Channel | null> = {
  email: emailChannel,
  whatsapp: whatsAppChannel,
};

const UNCONFIGURED: Record<NoticeChannel, string> = {
  email: 'No email sender is configured for this stage.',
  whatsapp: 'No WhatsApp sender is configured for this stage.',
};

/**
 * Why a notice to a suppressed address was not sent. The suppression list is the account's, shared by
 * every tenant: the reason never says when, how, or on whose notice the address bounced or complained.
 */
export const SUPPRESSED = 'The address is suppressed: it is not sent to.';

export async function deliverNotice(message: NoticeMessage, now: Date): Promise<void> {
  const tenant = tenantOf(message);
  const notice = await paymentNoticeOf(tenant, message.transactionRecordId);
  if (!notice) return;
  const base = { ...tenant, eventId: message.eventId, transactionRecordId: message.transactionRecordId };
  const at = now.toISOString();
  const verified = await mayReceive(tenant, notice.channel, notice.to);
  const suppressed = await findSuppressed(notice.channel, notice.to);
  const channel = channels[notice.channel]();
  if (!verified || suppressed || !channel) {
    const reason = !verified
      ? RECIPIENT_NOT_VERIFIED
      : suppressed
        ? SUPPRESSED
        : UNCONFIGURED[notice.channel];
    const written = await skipNotice({
      ...base,
      channel: notice.channel,
      status: 'skipped',
      attempts: 0,
      claimedUntil: at,
      reason,
      createdAt: at,
      updatedAt: at,
    });
    if (written.outcome === 'written') {
      // Counted once, as the notice is: a redelivery of the event finds it skipped already.
      if (!verified) countNoticeHeld({ ...tenant, channel: notice.channel }, 'recipient_not_verified');
      await recordNotification(tenant, message.transactionRecordId, { status: 'skipped', reason }, now);
    }
    return;
  }

  const claimed = await claimNotice(
    { ...base, channel: notice.channel },
    now,
    new Date(now.getTime() + CLAIM_SECONDS * 1000),
  );
  if (claimed.outcome !== 'written') {
    if (claimed.outcome === 'conditionFailed' && claimed.current.status === 'failed')
      throw new NoticeFailed(`The notice of event ${message.eventId} failed after ${MAX_ATTEMPTS} attempts`);
    // Sent or skipped already, or another delivery of the event holds the claim: nothing to do here.
    logger.info('Notice already sent or being sent', { eventId: message.eventId });
    return;
  }
  // Counted once per notice, at its first send: a retry is the same message.
  if (claimed.record.attempts === 1 && (await countTowardsDailyCap(tenant, notice.channel, now)) !== null) {
    const reason = dailyCapReason(tenant);
    await settleNotice(claimed.record, { status: 'skipped', reason }, now);
    await recordNotification(tenant, message.transactionRecordId, { status: 'skipped', reason }, now);
    return;
  }
  const rendered = renderNotice(notice.values, { test: tenant.environment === 'sandbox' });
  let messageId: string;
  try {
    ({ messageId } = await channel.send(notice.to, rendered, {
      environment: tenant.environment,
      associationId: tenant.associationId,
      transactionRecordId: message.transactionRecordId,
    }));
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const attempts = claimed.record.attempts;
    logger.warn('Notice not sent', { eventId: message.eventId, channel: notice.channel, attempts, reason });
    if (attempts < MAX_ATTEMPTS) {
      await settleNotice(claimed.record, { claimedUntil: at, reason }, now);
      const delay = Math.round((BACKOFF_SECONDS[attempts - 1] ?? 0) * config().NOTIFY_RETRY_SCALE);
      await sendToQueue(NOTICE_QUEUE, { ...message, attempt: attempts + 1 }, delay);
      return;
    }
    await settleNotice(claimed.record, { status: 'failed', reason }, now);
    await recordNotification(
      tenant,
      message.transactionRecordId,
      { status: 'failed', reason: `Not sent after ${attempts} attempts: ${reason}` },
      now,
    );
    throw new NoticeFailed(`The notice of event ${message.eventId} failed after ${attempts} attempts`);
  }
  // Outside the send's try: a table error here is no failed send (the channel took the notice), so it is
  // not re-queued as one; as for a worker that dies here, only the claim's expiry lets a redelivery send.
  await settleNotice(claimed.record, { status: 'sent', providerMessageId: messageId }, now);
  await recordNotification(
    tenant,
    message.transactionRecordId,
    { status: 'sent', sentAt: at, reason: null },
    now,
  );
}
