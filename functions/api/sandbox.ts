import { apiFunction, ok, operation } from '../../lib/api.ts';
import { sandboxDestinationParams, verificationDecisionBody } from '../../lib/beneficiaries/schema.ts';
import { decideDestinationVerification } from '../../lib/beneficiaries/service.ts';
import { assertSandbox, fundWallet } from '../../lib/wallets/sandbox.ts';
import { fundWalletBody, kycDecisionBody, walletIdParams } from '../../lib/wallets/schema.ts';
import { decideKyc } from '../../lib/wallets/service.ts';

export const handler = apiFunction('sandbox', {
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
    handle: async ({ tenant, params, body }) => ok(await fundWallet(tenant, params.walletId, body)),
  }),
  verifyPaymentDestination: operation({
    params: sandboxDestinationParams,
    body: verificationDecisionBody,
    handle: async ({ tenant, params, body, now }) => {
      assertSandbox(tenant);
      return ok(await decideDestinationVerification(tenant, params.destinationId, body.decision, now));
    },
  }),
});
