// Associations as other domains read them (a module of its own, so that reading one does not bundle
// token signing and verification into every function that does).
import type { Tenant } from '../tenant.ts';
import { findAssociation } from './repo.ts';

/** The association a tenant is (its name and kind decide `Me` beneficiaries and transaction types). */
export { findAssociation };

/** The kind of the tenant's association: the payer (off-ramp) or payee (on-ramp) side of a type. */
export async function findAssociationKind(tenant: Tenant): Promise<'business' | 'individual' | undefined> {
  return (await findAssociation(tenant))?.kind;
}
