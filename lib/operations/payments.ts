import { accepted, operation } from '../http/api-function.ts';
import type { Acceptance } from '../payments/idempotency.ts';
import { payP2pOwnMulti } from '../payments/multi-transfer.ts';
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
import { payP2pBeneficiary, payP2pOwn, paySwapBeneficiary, paySwapOwn } from '../payments/transfers.ts';
import type { Tenant } from '../tenant.ts';
import type * as z from '../zod.ts';

/** Every payment route is the same operation: its body, checked, accepted by its kind's service (202). */
const acceptance = <B>(
  body: z.ZodMiniType<B>,
  pay: (tenant: Tenant, body: B, now: Date, requestId?: string) => Promise<Acceptance>,
) =>
  operation({
    body,
    handle: async ({ tenant, body, now, requestId }) => accepted(await pay(tenant, body, now, requestId)),
  });

/** The operations of functions/api/payments.ts, by the operation names of lib/routes.ts. */
export const paymentsOperations = {
  payP2pOwn: acceptance(p2pOwnBody, payP2pOwn),
  payP2pOwnMulti: acceptance(p2pOwnMultiBody, payP2pOwnMulti),
  payP2pBeneficiary: acceptance(p2pBeneficiaryBody, payP2pBeneficiary),
  paySwapOwn: acceptance(swapOwnBody, paySwapOwn),
  payOfframp: acceptance(offrampBody, payOfframp),
  payOnramp: acceptance(onrampBody, payOnramp),
  paySwapBeneficiary: acceptance(swapBeneficiaryBody, paySwapBeneficiary),
};
