import { apiFunction, ok, operation } from '../../lib/api.ts';
import {
  beneficiaryIdParams,
  createBeneficiaryBody,
  createPaymentDestinationBody,
  destinationIdParams,
  listBeneficiariesQuery,
  listPaymentDestinationsQuery,
  updateBeneficiaryBody,
} from '../../lib/beneficiaries/schema.ts';
import {
  createBeneficiary,
  createPaymentDestination,
  getBeneficiary,
  getPaymentDestination,
  listBeneficiaries,
  listPaymentDestinations,
  updateBeneficiary,
} from '../../lib/beneficiaries/service.ts';

export const handler = apiFunction('beneficiaries', {
  listBeneficiaries: operation({
    query: listBeneficiariesQuery,
    handle: async ({ tenant, query }) => ok(await listBeneficiaries(tenant, query)),
  }),
  createBeneficiary: operation({
    body: createBeneficiaryBody,
    handle: async ({ tenant, body, now }) => ({
      status: 201,
      body: await createBeneficiary(tenant, body, now),
    }),
  }),
  getBeneficiary: operation({
    params: beneficiaryIdParams,
    handle: async ({ tenant, params }) => ok(await getBeneficiary(tenant, params.beneficiaryId)),
  }),
  updateBeneficiary: operation({
    params: beneficiaryIdParams,
    body: updateBeneficiaryBody,
    handle: async ({ tenant, params, body, now }) =>
      ok(await updateBeneficiary(tenant, params.beneficiaryId, body, now)),
  }),
  listPaymentDestinations: operation({
    params: beneficiaryIdParams,
    query: listPaymentDestinationsQuery,
    handle: async ({ tenant, params, query }) =>
      ok(await listPaymentDestinations(tenant, params.beneficiaryId, query)),
  }),
  createPaymentDestination: operation({
    params: beneficiaryIdParams,
    body: createPaymentDestinationBody,
    handle: async ({ tenant, params, body, now }) => ({
      status: 201,
      body: await createPaymentDestination(tenant, params.beneficiaryId, body, now),
    }),
  }),
  getPaymentDestination: operation({
    params: destinationIdParams,
    handle: async ({ tenant, params }) =>
      ok(await getPaymentDestination(tenant, params.beneficiaryId, params.destinationId)),
  }),
});
