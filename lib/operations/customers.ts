import { customerParams } from '../customers/customer-id.ts';
import {
  businessRegistration,
  type CustomerKind,
  type Identity,
  individualRegistration,
} from '../customers/schema.ts';
import { getCustomer, registerCustomer } from '../customers/service.ts';
import { ok, operation, type Reply } from '../http/api-function.ts';
import type { Tenant } from '../tenant.ts';

/** 201 for a first registration, 200 for the same body again or a new review after a decision. */
const registered = async (
  tenant: Tenant,
  params: { customerId: string; connectorId: string },
  kind: CustomerKind,
  identity: Identity,
  now: Date,
): Promise<Reply> => {
  const { created, customer } = await registerCustomer(
    tenant,
    params.connectorId,
    params.customerId,
    kind,
    identity,
    now,
  );
  return { status: created ? 201 : 200, body: customer };
};

/** The operations of functions/api/customers.ts, by the operation names of lib/routes.ts. */
export const customersOperations = {
  registerIndividualCustomer: operation({
    params: customerParams,
    body: individualRegistration,
    handle: ({ tenant, params, body, now }) => registered(tenant, params, 'individual', body, now),
  }),
  registerBusinessCustomer: operation({
    params: customerParams,
    body: businessRegistration,
    handle: ({ tenant, params, body, now }) => registered(tenant, params, 'business', body, now),
  }),
  getCustomer: operation({
    params: customerParams,
    handle: async ({ tenant, params }) =>
      ok(await getCustomer(tenant, params.connectorId, params.customerId)),
  }),
};
