// The notifier's items: one notice per event told, and the addresses a channel must not be used for.
//
// A notice is claimed before it is sent (status `sending`, held until `claimedUntil`), conditionally:
// two deliveries of the same event never both send; a claim left by a worker that crashed expires, and
// a later delivery takes it. A notice that ended (`sent`, `skipped`, `failed`) is never claimed again.
import { absent, type Condition } from '../db/conditions.ts';
import { entity } from '../db/entity.ts';
import { createIfAbsent, getRecord, putIf, updateIf, type Written } from '../db/items.ts';
import { notificationKeys, tenantOf } from '../db/keys.ts';
import { countInWindow } from '../db/window-count.ts';
import type { Environment, Tenant } from '../tenant.ts';

export type NoticeChannel = 'email' | 'whatsapp';
export type NoticeStatus = 'sending' | 'sent' | 'skipped' | 'failed';

export interface NoticeRecord {
  environment: Environment;
  associationId: string;
  eventId: string;
  transactionRecordId: string;
  channel: NoticeChannel;
  status: NoticeStatus;
  /** Sends tried so far. */
  attempts: number;
  claimedUntil: string;
  /** The channel's id of the message (SES MessageId, WhatsApp message id), once sent. */
  providerMessageId?: string;
  reason?: string;
  createdAt: string;
  updatedAt: string;
}

export interface SuppressedAddress {
  channel: NoticeChannel;
  address: string;
  /** `bounced` (a permanent bounce) or `complained` (the recipient marked a notice as spam). */
  cause: 'bounced' | 'complained';
  at: string;
}

const noticeEntity = entity<NoticeRecord>({
  type: 'notice',
  keyOf: (record) => notificationKeys.notice(tenantOf(record), record.eventId),
});

const suppressedEntity = entity<SuppressedAddress>({
  type: 'suppressedAddress',
  keyOf: (record) => notificationKeys.suppressed(record.channel, record.address),
});

export const findNotice = (tenant: Tenant, eventId: string) =>
  getRecord<NoticeRecord>(notificationKeys.notice(tenant, eventId), { consistent: true });

/** No notice yet, or one still `sending` whose claim has expired. */
const claimable = (now: Date): Condition => ({
  expression: 'attribute_not_exists(pk) OR (#cS = :cS AND #cU < :cNow)',
  names: { '#cS': 'status', '#cU': 'claimedUntil' },
  values: { ':cS': 'sending', ':cNow': now.toISOString() },
});

/** Claims the event's notice for one send until `until`: the notice as claimed, or as it is. */
export function claimNotice(
  notice: Pick<NoticeRecord, 'environment' | 'associationId' | 'eventId' | 'transactionRecordId' | 'channel'>,
  now: Date,
  until: Date,
): Promise<Written<NoticeRecord>> {
  const at = now.toISOString();
  return updateIf<NoticeRecord>(
    notificationKeys.notice(tenantOf(notice), notice.eventId),
    {
      set: { status: 'sending', claimedUntil: until.toISOString(), updatedAt: at },
      setIfAbsent: { ...notice, type: noticeEntity.type, createdAt: at },
      add: { attempts: 1 },
    },
    claimable(now),
  );
}

/** Ends a claimed notice (`sent`, `failed`), or releases its claim for the next attempt (`sending`). */
export function settleNotice(
  notice: NoticeRecord,
  set: Partial<Pick<NoticeRecord, 'status' | 'providerMessageId' | 'reason' | 'claimedUntil'>>,
  now: Date,
): Promise<Written<NoticeRecord>> {
  return updateIf<NoticeRecord>(
    notificationKeys.notice(tenantOf(notice), notice.eventId),
    { set: { ...set, updatedAt: now.toISOString() } },
    { expression: '#cS = :cS', names: { '#cS': 'status' }, values: { ':cS': 'sending' } },
  );
}

/** Writes a notice that ends without a send (`skipped`), unless the event has one already. */
export const skipNotice = (notice: NoticeRecord) => createIfAbsent(noticeEntity, notice);

export const findSuppressed = (channel: NoticeChannel, address: string) =>
  getRecord<SuppressedAddress>(notificationKeys.suppressed(channel, address));

/** Marks an address not to be used again; the first cause is kept. */
export const suppressAddress = (address: SuppressedAddress) =>
  putIf(suppressedEntity, { ...address, address: address.address.toLowerCase() }, absent);

/**
 * A sandbox recipient (lib/notifications/recipients.ts): `pending` while its code waits to be confirmed
 * (only the code's hash is kept), `verified` once it was, or by the admin CLI's allow-list (`by`).
 */
export interface NoticeRecipient {
  environment: Environment;
  associationId: string;
  channel: NoticeChannel;
  /** Lower-cased email, or the E.164 number. */
  address: string;
  status: 'pending' | 'verified';
  by: 'code' | 'admin';
  codeHash?: string;
  codeExpiresAt?: string;
  /** Wrong codes tried so far. */
  failedTries: number;
  createdAt: string;
  updatedAt?: string;
  verifiedAt?: string;
}

const recipientEntity = entity<NoticeRecipient>({
  type: 'noticeRecipient',
  keyOf: (record) => notificationKeys.recipient(tenantOf(record), record.channel, record.address),
});

export const findRecipient = (tenant: Tenant, channel: NoticeChannel, address: string) =>
  getRecord<NoticeRecipient>(notificationKeys.recipient(tenant, channel, address), { consistent: true });

/** A recipient's first code: written once, never replaced (a code is sent to an address once). */
export const createRecipient = (recipient: NoticeRecipient) => createIfAbsent(recipientEntity, recipient);

/** A new code in place of `read`'s, which expired unconfirmed or was never sent. */
export const updateRecipientCode = (pending: NoticeRecipient, read: NoticeRecipient, now: Date) =>
  updateIf<NoticeRecipient>(
    notificationKeys.recipient(tenantOf(pending), pending.channel, pending.address),
    {
      set: {
        codeHash: pending.codeHash,
        codeExpiresAt: pending.codeExpiresAt,
        failedTries: 0,
        updatedAt: now.toISOString(),
      },
    },
    {
      expression: '#cS = :cS AND #cH = :cH',
      names: { '#cS': 'status', '#cH': 'codeHash' },
      values: { ':cS': 'pending', ':cH': read.codeHash },
    },
  );

/** The admin CLI's allow-list: verified whatever its state. */
export const allowRecipient = (recipient: NoticeRecipient) => putIf(recipientEntity, recipient);

/** Confirms a pending recipient whose code was right. */
export const markVerified = (recipient: NoticeRecipient, now: Date) =>
  updateIf<NoticeRecipient>(
    notificationKeys.recipient(tenantOf(recipient), recipient.channel, recipient.address),
    { set: { status: 'verified', verifiedAt: now.toISOString() }, remove: ['codeHash', 'codeExpiresAt'] },
    { expression: '#cS = :cS', names: { '#cS': 'status' }, values: { ':cS': 'pending' } },
  );

/** Counts a wrong code on a pending recipient. */
export const countFailedTry = (recipient: NoticeRecipient) =>
  updateIf<NoticeRecipient>(
    notificationKeys.recipient(tenantOf(recipient), recipient.channel, recipient.address),
    { add: { failedTries: 1 } },
    { expression: '#cS = :cS', names: { '#cS': 'status' }, values: { ':cS': 'pending' } },
  );

const DAY_SECONDS = 86_400;

/** Counts one notice in the tenant's UTC day: null when counted, else the seconds until the day ends. */
export const countNoticeToday = (tenant: Tenant, limit: number, now: Date) =>
  countInWindow((windowStart) => notificationKeys.dayCount(tenant, windowStart), limit, DAY_SECONDS, now);
