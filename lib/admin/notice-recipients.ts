// The sandbox notice allow-list (admin CLI `notices allow`): an address a sandbox tenant's notices may go
// to without the code it would otherwise confirm (lib/notifications/recipients.ts), for a tester whose
// inbox cannot receive one. Production notices need no allowing: they go to the tenant's beneficiaries.
import { findAssociation } from '../auth/associations.ts';
import { e164, email } from '../beneficiaries/schema.ts';
import { allowSandboxRecipient } from '../notifications/recipients.ts';
import { AdminRefusal } from './refusal.ts';

export async function allowNoticeRecipient(associationId: string, channel: string, address: string) {
  if (channel !== 'email' && channel !== 'whatsapp')
    throw new AdminRefusal('--channel must be email or whatsapp');
  const valid = (channel === 'email' ? email : e164).safeParse(address);
  if (!valid.success) throw new AdminRefusal(`--address ${valid.error.issues[0]?.message ?? 'is not valid'}`);
  const tenant = { environment: 'sandbox' as const, associationId };
  if (!(await findAssociation(tenant))) throw new AdminRefusal(`No sandbox association ${associationId}`);
  return allowSandboxRecipient(tenant, channel, address);
}
