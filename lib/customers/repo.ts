// Customer registrations (lib/db/keys.ts bespokeKeys.customer): one item per tenant, connector and the
// caller's customerId. Each review has its own provider reference (a name-based id of the registration
// and the review's number), bound to the tenant in the provider's partition so that the provider's
// decision, which names only that reference, reaches this item; a decision moves the item only from
// PENDING and only for the review it names, so a late decision of an earlier review changes nothing.
import { absent, holds } from '../db/conditions.ts';
import { entity } from '../db/entity.ts';
import { getRecord, transact, updateIf, type Written } from '../db/items.ts';
import { bespokeKeys } from '../db/keys.ts';
import { nameBasedId } from '../ids.ts';
import { bindingOf } from '../providers/service.ts';
import type { Environment, Tenant } from '../tenant.ts';
import type { CustomerKind, Identity } from './schema.ts';

export type CustomerStatus = 'PENDING' | 'VERIFIED' | 'REJECTED';

export interface CustomerRecord {
  environment: Environment;
  associationId: string;
  customerId: string;
  connectorId: string;
  kind: CustomerKind;
  identity: Identity;
  /** sha256 of the canonical kind and identity: the same body again is a replay, another one a change. */
  fingerprint: string;
  status: CustomerStatus;
  /** 1 for the first review; a changed body after a decision starts the next. */
  review: number;
  /** Our reference for this review at the provider. */
  providerReference: string;
  reason: string | null;
  createdAt: string;
  updatedAt: string;
  decidedAt: string | null;
}

/** This service's namespace for review references (fixed forever). */
const NAMESPACE = '0d8f4c3a-6e2b-4a1d-9c7f-5b3e2a1d0c9e';

export const reviewReferenceOf = (tenant: Tenant, connectorId: string, customerId: string, review: number) =>
  nameBasedId(
    NAMESPACE,
    `${tenant.environment}/${tenant.associationId}/${connectorId}/${customerId}/${review}`,
  );

export const customerEntity = entity<CustomerRecord>({
  type: 'customer',
  keyOf: (r) => bespokeKeys.customer(r, r.connectorId, r.customerId),
});

export const findCustomer = (tenant: Tenant, connectorId: string, customerId: string) =>
  getRecord<CustomerRecord>(bespokeKeys.customer(tenant, connectorId, customerId), { consistent: true });

/**
 * Writes a registration's review with the binding of its provider reference, together: a first review
 * where there is none (`previous` undefined), or the next one over `previous` if it still holds.
 */
export async function writeReview(record: CustomerRecord, previous?: CustomerRecord): Promise<boolean> {
  const written = await transact([
    {
      put: {
        entity: customerEntity as never,
        record,
        condition: previous ? holds({ review: previous.review, status: previous.status }) : absent,
      },
    },
    {
      put: {
        ...bindingOf({
          environment: record.environment,
          connectorId: record.connectorId,
          kind: 'CUSTOMER',
          reference: record.providerReference,
          associationId: record.associationId,
          subjectId: record.customerId,
          createdAt: record.updatedAt,
        }),
      },
    },
  ]);
  return written.outcome === 'written';
}

/** The provider's decision on one review: moves it from PENDING, for that review only. */
export function decideReview(
  tenant: Tenant,
  connectorId: string,
  customerId: string,
  providerReference: string,
  decision: { status: 'VERIFIED' | 'REJECTED'; reason: string | null },
  now: Date,
): Promise<Written<CustomerRecord>> {
  return updateIf<CustomerRecord>(
    bespokeKeys.customer(tenant, connectorId, customerId),
    { set: { ...decision, decidedAt: now.toISOString(), updatedAt: now.toISOString() } },
    holds({ status: 'PENDING', providerReference }),
  );
}
