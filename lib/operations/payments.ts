import { accepted, operation } from '../http/api-function.ts';
import {
  payP2pBeneficiary,
  payP2pOwn,
  payP2pOwnMulti,
  paySwapBeneficiary,
  paySwapOwn,
} from '../payments/idempotency.ts';
import { payOfframp } from '../payments/ramps/offramp.ts';
import { payOnramp } from '../payments/ramps/onramp.ts';
import {
  offrampBody,
  onrampBody,
  p2pBeneficiaryBody,
  p2pOwnBody,
  p2pOwnMultiBody,
  swapBeneficiaryBody,
  swapOwnBody,
} from '../payments/schema.ts';

/** The operations of functions/api/payments.ts, by the operation names of lib/routes.ts. */
export const paymentsOperations = {
  payP2pOwn: operation({
    body: p2pOwnBody,
    handle: async ({ tenant, body, now, requestId }) =>
      accepted(await payP2pOwn(tenant, body, now, requestId)),
  }),
  payP2pOwnMulti: operation({
    body: p2pOwnMultiBody,
    handle: async ({ tenant, body, now, requestId }) =>
      accepted(await payP2pOwnMulti(tenant, body, now, requestId)),
  }),
  payP2pBeneficiary: operation({
    body: p2pBeneficiaryBody,
    handle: async ({ tenant, body, now, requestId }) =>
      accepted(await payP2pBeneficiary(tenant, body, now, requestId)),
  }),
  paySwapOwn: operation({
    body: swapOwnBody,
    handle: async ({ tenant, body, now, requestId }) =>
      accepted(await paySwapOwn(tenant, body, now, requestId)),
  }),
  payOfframp: operation({
    body: offrampBody,
    handle: async ({ tenant, body, now, requestId }) =>
      accepted(await payOfframp(tenant, body, now, requestId)),
  }),
  payOnramp: operation({
    body: onrampBody,
    handle: async ({ tenant, body, now, requestId }) =>
      accepted(await payOnramp(tenant, body, now, requestId)),
  }),
  paySwapBeneficiary: operation({
    body: swapBeneficiaryBody,
    handle: async ({ tenant, body, now, requestId }) =>
      accepted(await paySwapBeneficiary(tenant, body, now, requestId)),
  }),
};
