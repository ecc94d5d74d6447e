// A provider's signed notification sent to a gateway, as the provider simulator sends it (a new
// notification id each time, signed with the connector's secret): what tests and the bench's ramp soak
// send to make reports arrive in whatever order and at whatever moment they need.
import { randomUUID } from 'node:crypto';
import { findProviderSecret } from '../lib/providers/repo.ts';
import { SIGNATURE_HEADER, signNotification } from '../lib/providers/signature.ts';

/** Posts the signed report to `baseUrl`'s provider route of the sandbox connector: its answer's status. */
export async function sendProviderReport(
  baseUrl: string,
  connectorId: string,
  report: Record<string, unknown>,
): Promise<number> {
  const secret = (await findProviderSecret('sandbox', connectorId)) as Buffer;
  const text = JSON.stringify({ notificationId: randomUUID(), ...report });
  const answer = await fetch(`${baseUrl}/provider-notifications/sandbox/${connectorId}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [SIGNATURE_HEADER]: signNotification(secret, text, new Date()),
    },
    body: text,
  });
  await answer.text();
  return answer.status;
}
