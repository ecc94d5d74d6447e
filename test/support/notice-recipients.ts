// Sandbox notice recipients in tests: a sandbox notice goes only to a verified recipient
// (lib/notifications/recipient-rule.ts), so a test that expects one sent allows its address first,
// as the admin CLI's `notices allow` does.
import { allowNoticeRecipient } from '../../lib/admin/notice-recipients.ts';
import type { Caller } from './api.ts';

export const allowRecipient = (caller: Caller, channel: 'email' | 'whatsapp', address: string) =>
  allowNoticeRecipient(caller.tenant.associationId, channel, address);
