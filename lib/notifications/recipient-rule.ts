// Who a notice may go to. In production, anyone the tenant names (its beneficiaries). In the sandbox,
// where no money moves, only a recipient the tenant verified (lib/notifications/recipients.ts: a code
// sent once and confirmed, or the admin CLI's allow-list) or one of SES's mailbox simulator addresses
// (https://docs.aws.amazon.com/ses/latest/dg/send-an-email-from-console.html#send-email-simulator),
// which SES answers itself: a sandbox never mails a stranger from the platform's domain at its cost.
import type { Tenant } from '../tenant.ts';
import { findRecipient, type NoticeChannel } from './repo.ts';

/** What a sandbox notice to anyone else is recorded with (the record's `notification.reason`). */
export const RECIPIENT_NOT_VERIFIED = 'sandbox: recipient not verified';

const MAILBOX_SIMULATOR =
  /^(success|bounce|ooto|complaint|suppressionlist)(\+[^@\s]*)?@simulator\.amazonses\.com$/i;

export const isMailboxSimulator = (address: string) => MAILBOX_SIMULATOR.test(address);

/** The form a recipient is kept under: email lower-cased, a number as given (E.164). */
export const recipientAddress = (channel: NoticeChannel, address: string) =>
  channel === 'email' ? address.toLowerCase() : address;

export async function mayReceive(tenant: Tenant, channel: NoticeChannel, address: string): Promise<boolean> {
  if (tenant.environment !== 'sandbox') return true;
  if (channel === 'email' && isMailboxSimulator(address)) return true;
  const recipient = await findRecipient(tenant, channel, recipientAddress(channel, address));
  return recipient?.status === 'verified';
}
