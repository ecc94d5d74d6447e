// What the payments domain gives the notifier (lib/notifications/service.ts): the notice a completed
// record owes its beneficiary (notifyEmail / notifyWhatsApp on the beneficiary routes and off-ramps), and
// the record's `notification`, which says what became of it. Notices are sent off the request path,
// from the record's change to `completed` (lib/outbox.ts), so a channel that is down never fails a payment.
import { findAssociation } from '../auth/associations.ts';
import type { NoticeValues } from '../notifications/templates.ts';
import type { Tenant } from '../tenant.ts';
import { findTransaction, type NotificationOnRecord, type NotifyChannel, noteNotification } from './repo.ts';

export interface PaymentNotice {
  channel: NotifyChannel;
  /** The beneficiary's email or E.164 mobile number. */
  to: string;
  values: NoticeValues;
}

/** The notice the record owes once it completed, or null (nothing asked, or not completed). */
export async function paymentNoticeOf(
  tenant: Tenant,
  transactionRecordId: string,
): Promise<PaymentNotice | null> {
  const record = await findTransaction(tenant, transactionRecordId, { consistent: true });
  if (!record?.notify || record.status !== 'completed') return null;
  const association = await findAssociation(tenant);
  const paidOut = record.transactionType === 'offramp' ? record.ramp : undefined;
  return {
    ...record.notify,
    values: {
      event: paidOut ? 'offramp.paid_out' : 'payment.completed',
      amount: paidOut ? paidOut.fiatAmount : (record.receiveAmount ?? record.sendAmount),
      currency: paidOut ? paidOut.fiatCurrency : record.receivingAsset.code,
      senderName: association?.name ?? 'Your sender',
      reference: record.toRef,
    },
  };
}

/** Writes what became of the record's notice (its status moves nothing else); `sentAt` is kept unless given. */
export async function recordNotification(
  tenant: Tenant,
  transactionRecordId: string,
  change: Pick<NotificationOnRecord, 'status' | 'reason'> & { sentAt?: string },
  now: Date,
): Promise<void> {
  const record = await findTransaction(tenant, transactionRecordId, { consistent: true });
  if (!record?.notify) return;
  const notification: NotificationOnRecord = {
    channel: record.notify.channel,
    sentAt: record.notification?.sentAt ?? null,
    ...change,
  };
  await noteNotification(tenant, record, notification, now);
}
