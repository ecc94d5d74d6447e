// What another domain (payments) reads of a beneficiary to pay it: the names, the contact details a
// notification needs, and one of its payment destinations. A module of its own, beside the service,
// so that a payment function does not bundle the beneficiary schemas (and their phone metadata).
import type { Tenant } from '../tenant.ts';
import { type DestinationMethod, findBeneficiary, findPaymentDestination } from './repo.ts';

export interface Payee {
  beneficiaryId: string;
  /** A business's registered name is its firstName; its lastName is null. */
  firstName: string;
  lastName: string | null;
  email: string | null;
  mobile: string | null;
  destination: {
    destinationId: string;
    method: DestinationMethod;
    /** CRYPTO only: the ledger address, and the registry asset it receives (with its issuer). */
    walletAddress: string | null;
    assetCode: string | null;
    assetIssuer: string | null;
  };
}

export type PayeeLookup = { found: Payee } | { missing: 'beneficiary' | 'destination' };

/** The beneficiary and one of its own destinations; another beneficiary's destination is missing. */
export async function findPayee(
  tenant: Tenant,
  beneficiaryId: string,
  destinationId: string,
): Promise<PayeeLookup> {
  const [beneficiary, destination] = await Promise.all([
    findBeneficiary(tenant, beneficiaryId),
    findPaymentDestination(tenant, beneficiaryId, destinationId),
  ]);
  if (!beneficiary) return { missing: 'beneficiary' };
  if (!destination) return { missing: 'destination' };
  const person = beneficiary.individual;
  const contact = person ?? beneficiary.business;
  return {
    found: {
      beneficiaryId,
      firstName: person ? person.firstName : (beneficiary.business?.registeredName ?? ''),
      lastName: person ? person.lastName : null,
      email: contact?.email ?? null,
      mobile: contact?.mobile ?? null,
      destination: {
        destinationId,
        method: destination.method,
        walletAddress: destination.walletAddress ?? null,
        assetCode: destination.assetSymbol ?? null,
        assetIssuer: destination.assetIssuer ?? null,
      },
    },
  };
}
