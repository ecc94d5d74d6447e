import {
  beneficiaryIdParams,
  createBeneficiaryBody,
  createPaymentDestinationBody,
  destinationIdParams,
  listBeneficiariesQuery,
  listPaymentDestinationsQuery,
  updateBeneficiaryBody,
} from '../beneficiaries/schema.ts';
import {
  createBeneficiary,
  createPaymentDestination,
  getBeneficiary,
  getPaymentDestination,
  listBeneficiaries,
  listPaymentDestinations,
  updateBeneficiary,
} from '../beneficiaries/service.ts';
import { ok, operation } from '../http/api-function.ts';
import { createOperation, listOperation, readOperation } from './tenant-shapes.ts';

/** The operations of functions/api/beneficiaries.ts, by the operation names of lib/routes.ts. */
export const beneficiariesOperations = {
  listBeneficiaries: listOperation(listBeneficiariesQuery, listBeneficiaries),
  createBeneficiary: createOperation(createBeneficiaryBody, createBeneficiary),
  getBeneficiary: readOperation(beneficiaryIdParams, 'beneficiaryId', getBeneficiary),
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
};
