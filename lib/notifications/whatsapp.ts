// WhatsApp through the WhatsApp Business Cloud API: POST /{version}/{phone-number-id}/messages with a
// template message (a business may open a conversation only with an approved template), whose body takes
// the amount, the sender and the reference (lib/notifications/templates.ts). The access token is a
// Secrets Manager secret `{accessToken}`, read through the cache every secret is. Locally the same
// requests reach the WhatsApp simulator (local/whatsapp-simulator.ts) through WHATSAPP_API_URL.
import { readSecretJson } from '../aws/secrets.ts';
import { config } from '../config.ts';
import * as z from '../zod.ts';
import type { Channel } from './channels.ts';

/** The API answers within this, or the attempt failed (the notifier retries). */
const REQUEST_TIMEOUT_MS = 10_000;

const tokenSecret = z.object({ accessToken: z.string().check(z.minLength(1)) });
const accepted = z.object({ messages: z.array(z.object({ id: z.string() })).check(z.minLength(1)) });

export class WhatsAppRefused extends Error {
  override name = 'WhatsAppRefused';
}

export function whatsAppChannel(): Channel | null {
  const settings = config();
  const phoneNumberId = settings.WHATSAPP_PHONE_NUMBER_ID;
  const secretId = settings.WHATSAPP_TOKEN_SECRET_ID;
  if (!phoneNumberId || !secretId) return null;
  const url = `${settings.WHATSAPP_API_URL}/${settings.WHATSAPP_API_VERSION}/${phoneNumberId}/messages`;
  return {
    async send(to, notice) {
      const { accessToken } = tokenSecret.parse(await readSecretJson(secretId));
      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to,
          type: 'template',
          template: {
            name: notice.template === 'code' ? settings.WHATSAPP_CODE_TEMPLATE : settings.WHATSAPP_TEMPLATE,
            language: { code: settings.WHATSAPP_TEMPLATE_LANGUAGE },
            components: [
              { type: 'body', parameters: notice.parameters.map((text) => ({ type: 'text', text })) },
            ],
          },
        }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await response.text();
      if (!response.ok) throw new WhatsAppRefused(`HTTP ${response.status}: ${text.slice(0, 300)}`);
      const [message] = accepted.parse(JSON.parse(text)).messages;
      return { messageId: message?.id ?? '' };
    },
  };
}
