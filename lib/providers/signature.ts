// Provider notifications are signed with the connector's secret: header `X-Provider-Signature:
// t=<unix ms>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. A signature more than NOTIFICATION_TOLERANCE_MS
// away from now is stale (refused), and each notification id is taken once (the route records it), so a
// captured notification cannot be played again.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-provider-signature';
export const NOTIFICATION_TOLERANCE_MS = 5 * 60 * 1000;

const mac = (secret: Buffer | string, timestamp: number, body: string) =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

export const signNotification = (secret: Buffer | string, body: string, now: Date): string => {
  const t = now.getTime();
  return `t=${t},v1=${mac(secret, t, body)}`;
};

/** True when `header` signs `body` with `secret` within the tolerance of `now`. */
export function verifyNotificationSignature(
  secret: Buffer | string,
  header: string | undefined,
  body: string,
  now: Date,
): boolean {
  const parts = Object.fromEntries(
    (header ?? '').split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    }),
  );
  const t = Number(parts.t);
  const given = parts.v1 ?? '';
  if (!Number.isSafeInteger(t) || !/^[0-9a-f]{64}$/.test(given)) return false;
  if (Math.abs(now.getTime() - t) > NOTIFICATION_TOLERANCE_MS) return false;
  return timingSafeEqual(Buffer.from(mac(secret, t, body), 'hex'), Buffer.from(given, 'hex'));
}
