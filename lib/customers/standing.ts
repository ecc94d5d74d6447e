// Customers as other domains reach them: the connector an on-ramp reference is issued under, whether
// the customer is verified, and the provider's decision on a review (its signed notification). A module
// of its own so that on-ramps and provider notifications do not bundle the registration routes' schemas
// and responses (the beneficiaries' identity shapes, libphonenumber and its metadata).
import { connectorOrNotFound } from '../connectors/service.ts';
import { notFound, unprocessable } from '../http/problem.ts';
import { logger } from '../log.ts';
import { deactivateCustomerReferences } from '../onramp-references/deactivation.ts';
import type { CustomerStatus as ProviderDecision } from '../providers/contract.ts';
import { findBinding } from '../providers/service.ts';
import type { Environment, Tenant } from '../tenant.ts';
import { decideReview, findCustomer } from './repo.ts';

/** The connector, if customers register with it: 404 unknown, 422 (naming connectorId) otherwise. */
export async function bespokeConnector(environment: Environment, connectorId: string, field = 'connectorId') {
  const connector = await connectorOrNotFound(environment, connectorId);
  const refuse = (message: string) =>
    unprocessable(`Connector ${connectorId} takes no customers.`, [{ field, message }]);
  if (connector.flow !== 'BESPOKE')
    throw refuse(
      `${connectorId} is a ${connector.flow} connector: only BESPOKE connectors register customers`,
    );
  if (!connector.isActive) throw refuse(`${connectorId} is not active (status ${connector.status})`);
  return connector;
}

/** The verified registration a reference is issued for: 404 unknown, 422 (naming `customerId`) unverified. */
export async function verifiedCustomer(tenant: Tenant, connectorId: string, customerId: string) {
  const record = await findCustomer(tenant, connectorId, customerId);
  if (!record)
    throw notFound(`No customer ${customerId} registered with connector ${connectorId}.`, [
      { field: 'customerId', message: `is not registered with ${connectorId}` },
    ]);
  if (record.status !== 'VERIFIED')
    throw unprocessable('The customer is not verified by the connector’s provider.', [
      { field: 'customerId', message: `is ${record.status}, not VERIFIED` },
    ]);
  return record;
}

/** Where the customer stands with the connector's provider now, or undefined when not registered. */
export async function customerStanding(tenant: Tenant, connectorId: string, customerId: string) {
  return (await findCustomer(tenant, connectorId, customerId))?.status;
}

/** The provider's decision on a review (a verified notification): moves its registration once. */
export async function applyCustomerDecision(
  environment: Environment,
  connectorId: string,
  reference: string,
  decision: { status: Exclude<ProviderDecision, 'pending'>; reason: string | null },
  now: Date,
): Promise<void> {
  const binding = await findBinding(environment, connectorId, 'CUSTOMER', reference);
  if (!binding) {
    logger.warn('Customer decision for no review of ours', { connectorId, reference });
    return;
  }
  const tenant = { environment, associationId: binding.associationId };
  const written = await decideReview(
    tenant,
    connectorId,
    binding.subjectId,
    reference,
    { status: decision.status === 'verified' ? 'VERIFIED' : 'REJECTED', reason: decision.reason },
    now,
  );
  logger.info('Customer decided by its provider', { moved: written.outcome === 'written' });
  // A rejection of the review the registration stands on deactivates the customer's references: also
  // when it was written before (the provider retrying a decision whose deactivation failed).
  const standing =
    written.outcome === 'written'
      ? written.record
      : written.outcome === 'conditionFailed'
        ? written.current
        : undefined;
  if (standing?.status === 'REJECTED' && standing.providerReference === reference)
    await deactivateCustomerReferences(tenant, connectorId, binding.subjectId, now);
}
