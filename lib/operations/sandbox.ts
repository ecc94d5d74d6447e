import { decideDestinationVerification } from '../beneficiaries/verification.ts';
import { sandboxDestinationParams, verificationDecisionBody } from '../beneficiaries/verification-schema.ts';
import { accepted, ok, operation } from '../http/api-function.ts';
import { assertSandbox, fundWallet } from '../wallets/sandbox.ts';
import { fundWalletBody, kycDecisionBody, walletIdParams } from '../wallets/schema.ts';
import { decideKyc } from '../wallets/service.ts';

/** The operations of functions/api/sandbox.ts, by the operation names of lib/routes.ts. */
export const sandboxOperations = {
  decideKyc: operation({
    params: walletIdParams,
    body: kycDecisionBody,
    handle: async ({ tenant, params, body, now }) => {
      assertSandbox(tenant);
      return ok(await decideKyc(tenant, params.walletId, body.decision, now));
    },
  }),
  fundWallet: operation({
    params: walletIdParams,
    body: fundWalletBody,
    idempotencyKey: true,
    handle: async ({ tenant, params, body, idempotencyKey }) => {
      const funding = await fundWallet(tenant, params.walletId, body, idempotencyKey);
      return funding.status === 'pending' ? accepted(funding) : ok(funding);
    },
  }),
  verifyPaymentDestination: operation({
    params: sandboxDestinationParams,
    body: verificationDecisionBody,
    handle: async ({ tenant, params, body, now }) => {
      assertSandbox(tenant);
      return ok(await decideDestinationVerification(tenant, params.destinationId, body.decision, now));
    },
  }),
};
