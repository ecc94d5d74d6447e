import { ok, operation } from '../http/api-function.ts';
import {
  activationBody,
  createReferenceBody,
  listReferencesQuery,
  moveBody,
  referenceParams,
} from '../onramp-references/schema.ts';
import {
  activateReferences,
  createReference,
  listReferences,
  moveReference,
} from '../onramp-references/service.ts';
import { actionOperation, createOperation, listOperation } from './tenant-shapes.ts';

/** The operations of functions/api/onramp.ts, by the operation names of lib/routes.ts. */
export const onrampOperations = {
  createOnrampReference: createOperation(createReferenceBody, createReference),
  activateOnrampReferences: actionOperation(activationBody, activateReferences),
  moveOnrampReference: operation({
    params: referenceParams,
    body: moveBody,
    handle: async ({ tenant, params, body, now }) =>
      ok(await moveReference(tenant, params.reference, body.walletId, now)),
  }),
  listOnrampReferences: listOperation(listReferencesQuery, listReferences),
};
