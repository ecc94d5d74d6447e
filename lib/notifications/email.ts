// Email through Amazon SES (API v2 SendEmail), from the stage's verified sending identity and through
// its configuration set, whose event destination reports bounces and complaints back to the table
// (lib/notifications/feedback.ts). The message carries the record's ids as SES tags, never in its text:
// the feedback event names them, and so which record's notice bounced. Locally the SDK reaches the SES
// emulator through AWS_ENDPOINT_URL_SESV2 (local/ses.ts).
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { config } from '../config.ts';
import type { Channel } from './channels.ts';
import type { RenderedNotice } from './templates.ts';

let client: SESv2Client | undefined;

export function emailChannel(): Channel | null {
  const { NOTIFY_EMAIL_FROM: from, SES_CONFIGURATION_SET: configurationSet } = config();
  if (!from || !configurationSet) return null;
  return {
    async send(to, notice, tags) {
      const sent = await sendEmail(to, notice, { ...tags });
      if (!sent) throw new Error('Email is not configured for this stage');
      return sent;
    },
  };
}

/**
 * One email through the stage's identity and configuration set; null when the stage has none. The
 * portal's sign-in codes go out this way too, tagged with their purpose instead of a record's ids.
 */
export async function sendEmail(
  to: string,
  notice: Pick<RenderedNotice, 'subject' | 'text'>,
  tags: Record<string, string | undefined>,
): Promise<{ messageId: string } | null> {
  const { NOTIFY_EMAIL_FROM: from, SES_CONFIGURATION_SET: configurationSet } = config();
  if (!from || !configurationSet) return null;
  client ??= new SESv2Client({});
  const { MessageId } = await client.send(
    new SendEmailCommand({
      FromEmailAddress: from,
      Destination: { ToAddresses: [to] },
      ConfigurationSetName: configurationSet,
      Content: {
        Simple: {
          Subject: { Data: notice.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: notice.text, Charset: 'UTF-8' } },
        },
      },
      // SES refuses an empty tag value: a tag without one is left out.
      EmailTags: Object.entries(tags).flatMap(([Name, Value]) => (Value ? [{ Name, Value }] : [])),
    }),
  );
  if (!MessageId) throw new Error('SES accepted the message without a MessageId');
  return { messageId: MessageId };
}
