// components.schemas: the named response schemas (output side of each zod schema) and every request
// body (input side: what a caller may send, before defaults and transforms). A schema registered here
// is referenced wherever it appears, so nested resources (destinations in a beneficiary) read as $refs.

import { assetPage, assetResource } from '../lib/assets/responses.ts';
import {
  createdCredentialResource,
  credentialPage,
  credentialResource,
  tokenResponse,
} from '../lib/auth/responses.ts';
import {
  beneficiaryPage,
  beneficiaryResource,
  beneficiaryWithDestinationsResource,
  paymentDestinationPage,
  paymentDestinationResource,
} from '../lib/beneficiaries/responses.ts';
import {
  connectorPage,
  connectorResource,
  connectorWithExecutionResource,
  enumsResource,
  requirementsResource,
} from '../lib/connectors/responses.ts';
import { customerDecisionResource, customerResource } from '../lib/customers/responses.ts';
import { recipientResource } from '../lib/notifications/schema.ts';
import {
  referenceList,
  referencePage,
  referenceResource,
  sandboxReceiptResource,
} from '../lib/onramp-references/responses.ts';
import {
  paymentAcceptance,
  rampOutcomeResource,
  transactionPage,
  transactionResource,
} from '../lib/payments/responses.ts';
import { timelineStep } from '../lib/payments/timeline.ts';
import {
  auditPage,
  memberPage,
  memberResource,
  portalSessionResource,
  portalTokenResource,
  signedOut,
  signInAccepted,
} from '../lib/people/responses.ts';
import { providerNotificationReceipt } from '../lib/providers/responses.ts';
import { quoteResource } from '../lib/quotes/responses.ts';
import { requestLogPage } from '../lib/request-log/responses.ts';
import { statementLine, statementResource } from '../lib/statements/responses.ts';
import {
  balanceResource,
  sandboxFundingPendingResource,
  sandboxFundingResource,
  walletPage,
  walletResource,
} from '../lib/wallets/responses.ts';
import {
  createdWebhookResource,
  deliveryPage,
  deliveryResource,
  webhookPage,
  webhookResource,
} from '../lib/webhooks/responses.ts';
import * as z from '../lib/zod.ts';
import { stateRefinements } from './refinements.ts';
import type { JsonSchema } from './types.ts';

export const SCHEMA_REF_PREFIX = '#/components/schemas/';

const responseSchemas: Record<string, z.core.$ZodType> = {
  Token: tokenResponse,
  Asset: assetResource,
  AssetPage: assetPage,
  Balance: balanceResource,
  Wallet: walletResource,
  WalletPage: walletPage,
  SandboxFunding: sandboxFundingResource,
  SandboxFundingPending: sandboxFundingPendingResource,
  Beneficiary: beneficiaryResource,
  BeneficiaryWithDestinations: beneficiaryWithDestinationsResource,
  BeneficiaryPage: beneficiaryPage,
  PaymentDestination: paymentDestinationResource,
  PaymentDestinationPage: paymentDestinationPage,
  Connector: connectorResource,
  ConnectorWithExecution: connectorWithExecutionResource,
  ConnectorPage: connectorPage,
  Requirements: requirementsResource,
  Enums: enumsResource,
  Quote: quoteResource,
  PaymentAcceptance: paymentAcceptance,
  RampOutcome: rampOutcomeResource,
  ProviderNotificationReceipt: providerNotificationReceipt,
  Customer: customerResource,
  CustomerDecision: customerDecisionResource,
  OnrampReference: referenceResource,
  OnrampReferencePage: referencePage,
  OnrampReferenceList: referenceList,
  SandboxReceipt: sandboxReceiptResource,
  SandboxNoticeRecipient: recipientResource,
  Transaction: transactionResource,
  TimelineStep: timelineStep,
  TransactionPage: transactionPage,
  StatementLine: statementLine,
  Statement: statementResource,
  Webhook: webhookResource,
  CreatedWebhook: createdWebhookResource,
  WebhookPage: webhookPage,
  WebhookDelivery: deliveryResource,
  WebhookDeliveryPage: deliveryPage,
  SignInAccepted: signInAccepted,
  PortalSession: portalSessionResource,
  SignedOut: signedOut,
  PortalToken: portalTokenResource,
  Member: memberResource,
  MemberPage: memberPage,
  AuditPage: auditPage,
  Credential: credentialResource,
  CreatedCredential: createdCredentialResource,
  CredentialPage: credentialPage,
  RequestLogPage: requestLogPage,
};

/**
 * A body that first checks "is a JSON object" and then pipes into its real schema
 * (`z.pipe(z.unknown().check(…), object)`, so a non-object is named as such) is documented by the
 * object: the input side of the pipe alone would be an empty schema.
 */
export function documentedRequestSchema(schema: z.core.$ZodType): z.core.$ZodType {
  const def = schema._zod.def;
  if (def.type === 'pipe') {
    const pipe = def as z.core.$ZodPipeDef;
    if (pipe.in._zod.def.type === 'unknown') return pipe.out;
  }
  return schema;
}

/** The JSON Schemas of a registry, with refs between its members; no shared leftovers are allowed. */
function convert(
  registry: z.core.$ZodRegistry<{ id: string }>,
  io: 'input' | 'output',
): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    uri: (id) => `${SCHEMA_REF_PREFIX}${id}`,
    override: stateRefinements,
  });
  const result: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    if (id === '__shared') throw new Error('A schema was extracted outside components.schemas');
    const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema;
    result[id] = rest;
  }
  return result;
}

export interface SchemaComponents {
  schemas: Record<string, JsonSchema>;
  /** A $ref to a named response schema. */
  responseRef(schema: z.core.$ZodType): { $ref: string };
}

/** `requestBodies`: component name → the operation's body schema (e.g. CreateWalletRequest). */
export function schemaComponents(requestBodies: Record<string, z.core.$ZodType>): SchemaComponents {
  const responses = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(responseSchemas)) responses.add(schema, { id });
  const requests = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(requestBodies))
    requests.add(documentedRequestSchema(schema), { id });
  const schemas = { ...convert(responses, 'output'), ...convert(requests, 'input') };
  return {
    schemas,
    responseRef(schema) {
      const id = responses.get(schema)?.id;
      if (!id) throw new Error('A success response schema is not registered in openapi/schemas.ts');
      return { $ref: `${SCHEMA_REF_PREFIX}${id}` };
    },
  };
}
