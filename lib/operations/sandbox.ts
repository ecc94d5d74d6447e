import { sandboxDestinationParams, verificationDecisionBody } from '../beneficiaries/verification-schema.ts';
import { customerParams } from '../customers/customer-id.ts';
import { customerDecisionBody, decideCustomerForTest } from '../customers/decision.ts';
import { accepted, ok, operation } from '../http/api-function.ts';
import { uuidField } from '../http/uuid-field.ts';
import { confirmRecipient, requestRecipientCode } from '../notifications/recipients.ts';
import { recipientBody, recipientCodeBody } from '../notifications/schema.ts';
import { referenceParams, sandboxReceiptBody } from '../onramp-references/schema.ts';
import { payIntoReferenceForTest } from '../onramp-references/service.ts';
import { settleRampInstruction } from '../payments/ramps/sandbox.ts';
import { assertSandbox, fundWallet, settleDestinationVerification, settleKyc } from '../wallets/sandbox.ts';
import { countSandboxMoney } from '../wallets/sandbox-limits.ts';
import { fundWalletBody, kycDecisionBody, walletIdParams } from '../wallets/schema.ts';
import * as z from '../zod.ts';
import { actionOperation } from './tenant-shapes.ts';

const rampOutcomeParams = z.strictObject({
  transactionRecordId: uuidField,
  outcome: z.enum(['complete', 'fail', 'return'], { message: 'must be complete, fail or return' }),
});

/** The operations of functions/api/sandbox.ts, by the operation names of lib/routes.ts. */
export const sandboxOperations = {
  decideKyc: operation({
    params: walletIdParams,
    body: kycDecisionBody,
    handle: async ({ tenant, params, body, now }) =>
      ok(await settleKyc(tenant, params.walletId, body.decision, now)),
  }),
  decideCustomer: operation({
    params: customerParams,
    body: customerDecisionBody,
    handle: async ({ tenant, params, body }) =>
      accepted(await decideCustomerForTest(tenant, params.connectorId, params.customerId, body.decision)),
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
  payIntoReference: operation({
    params: referenceParams,
    body: sandboxReceiptBody,
    handle: async ({ tenant, params, body, now }) => {
      assertSandbox(tenant);
      // The cap is checked as the request is accepted, before the provider is asked for anything.
      await countSandboxMoney(tenant, 'receipt', body.amount, body.currency, undefined, now);
      return accepted(await payIntoReferenceForTest(tenant, params.reference, body));
    },
  }),
  settleRampInstruction: operation({
    params: rampOutcomeParams,
    handle: async ({ tenant, params }) =>
      accepted(await settleRampInstruction(tenant, params.transactionRecordId, params.outcome)),
  }),
  requestRecipientCode: operation({
    body: recipientBody,
    handle: async ({ tenant, body, now }) => {
      const { recipient, sent } = await requestRecipientCode(tenant, body, now);
      return sent ? accepted(recipient) : ok(recipient);
    },
  }),
  confirmRecipient: actionOperation(recipientCodeBody, confirmRecipient),
  verifyPaymentDestination: operation({
    params: sandboxDestinationParams,
    body: verificationDecisionBody,
    handle: async ({ tenant, params, body, now }) =>
      ok(await settleDestinationVerification(tenant, params.destinationId, body.decision, now)),
  }),
};
