// The sandbox recipient routes' bodies (lib/notifications/recipients.ts): an email address or an E.164
// number, by channel, and the six-digit code sent to it.
import { e164, email as emailAddress } from '../beneficiaries/schema.ts';
import * as z from '../zod.ts';

const email = z.strictObject({
  channel: z.literal('email'),
  address: emailAddress,
});
const whatsapp = z.strictObject({ channel: z.literal('whatsapp'), address: e164 });

export const recipientBody = z.discriminatedUnion('channel', [email, whatsapp], {
  message: 'must be email or whatsapp',
});

const code = { code: z.string().check(z.regex(/^\d{6}$/, 'must be the six digits sent')) };

export const recipientCodeBody = z.discriminatedUnion(
  'channel',
  [z.extend(email, code), z.extend(whatsapp, code)],
  { message: 'must be email or whatsapp' },
);

export const recipientResource = z.object({
  channel: z.enum(['email', 'whatsapp']),
  address: z.string(),
  status: z.enum(['pending', 'verified']),
  codeExpiresAt: z.nullable(z.string()),
});
