// Customers of bespoke connectors (docs/decisions/bespoke-customers.md): the caller registers one of its
// customers with a BESPOKE connector's provider, which reviews the identity and decides, later, by a signed
// notification (lib/operations/providers.ts, applied by standing.ts); the decision emits Customer_Verified or
// Customer_Rejected (lib/outbox.ts).
//
// PUT is idempotent on the body: the same kind and identity again answers the registration as it stands
// (200); another body while the review is pending is a 409; another body after a decision starts the
// next review (200, PENDING, `review` + 1) under a new provider reference. The provider is asked before
// anything is written, under a reference derived from the registration and the review's number, so a
// retry after a crash asks it again for the same review and it answers with the one it holds.
import { findAssociationKind } from '../auth/associations.ts';
import type { ConnectorRecord } from '../connectors/repo.ts';
import { type TransactionType, transactionTypeOf } from '../connectors/transaction-types.ts';
import { type FieldError, notFound, Problem, unprocessable } from '../http/problem.ts';
import { purposeOf } from '../ledger/purpose.ts';
import { askProvider } from '../providers/service.ts';
import type { Tenant } from '../tenant.ts';
import { type CustomerRecord, findCustomer, reviewReferenceOf, writeReview } from './repo.ts';
import { toCustomerResource } from './responses.ts';
import type { CustomerKind, Identity } from './schema.ts';
import { bespokeConnector } from './standing.ts';

/** The members of the identity the connector's provider needs for this customer, one error each. */
function identityErrors(
  connector: ConnectorRecord,
  type: TransactionType,
  kind: CustomerKind,
  identity: Identity,
) {
  const prefix = `${kind}.`;
  return (connector.compliance[type]?.sender ?? [])
    .filter((rule) => rule.required && rule.field.startsWith(prefix))
    .map((rule) => rule.field.slice(prefix.length))
    .filter((member) => identity[member] === undefined)
    .map((member): FieldError => ({ field: member, message: `is required by connector ${connector.id}` }));
}

export async function registerCustomer(
  tenant: Tenant,
  connectorId: string,
  customerId: string,
  kind: CustomerKind,
  identity: Identity,
  now: Date,
): Promise<{ created: boolean; customer: ReturnType<typeof toCustomerResource> }> {
  const connector = await bespokeConnector(tenant.environment, connectorId);
  const association = await findAssociationKind(tenant);
  if (!association) throw new Error(`No association record for ${tenant.associationId}`);
  // The customer pays the caller: payer first.
  const type = transactionTypeOf(kind, association);
  if (!connector.transactionTypes.some((t) => t.type === type && t.status === 'ONLINE'))
    throw unprocessable(`Connector ${connectorId} takes no ${kind} customers for this business.`, [
      { field: 'connectorId', message: `does not serve ${type} (an ${kind} customer paying you)` },
    ]);
  const missing = identityErrors(connector, type, kind, identity);
  if (missing.length) throw unprocessable('The provider needs more of this customer’s identity.', missing);

  const fingerprint = purposeOf({ kind, identity });
  const existing = await findCustomer(tenant, connectorId, customerId);
  if (existing?.fingerprint === fingerprint)
    return { created: false, customer: toCustomerResource(existing) };
  if (existing?.status === 'PENDING')
    throw new Problem(409, 'The provider is still reviewing this customer as first registered.', {
      errors: [
        { field: 'body', message: 'differs from the registration under review; send it again once decided' },
      ],
    });
  const review = (existing?.review ?? 0) + 1;
  const providerReference = reviewReferenceOf(tenant, connectorId, customerId, review);
  const state = await askProvider(tenant.environment, connectorId, (provider) =>
    provider.registerCustomer({ reference: providerReference, connectorId, kind, identity }),
  );
  const at = now.toISOString();
  const decided = state.status !== 'pending';
  const record: CustomerRecord = {
    environment: tenant.environment,
    associationId: tenant.associationId,
    customerId,
    connectorId,
    kind,
    identity,
    fingerprint,
    // A provider that decided already (a retry after a crash, the decision's notification lost to it).
    status: decided ? (state.status.toUpperCase() as CustomerRecord['status']) : 'PENDING',
    review,
    providerReference,
    reason: state.reason,
    createdAt: existing?.createdAt ?? at,
    updatedAt: at,
    decidedAt: decided ? at : null,
  };
  if (await writeReview(record, existing))
    return { created: !existing, customer: toCustomerResource(record) };
  // Another request registered it in between: answered as if this one came second.
  return registerCustomer(tenant, connectorId, customerId, kind, identity, now);
}

export async function getCustomer(tenant: Tenant, connectorId: string, customerId: string) {
  const record = await findCustomer(tenant, connectorId, customerId);
  if (!record) throw notFound(`No customer ${customerId} registered with connector ${connectorId}.`);
  return toCustomerResource(record);
}
