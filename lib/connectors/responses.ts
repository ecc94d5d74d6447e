// What the connector routes answer (service.ts toConnectorResource, getConnector, getRequirements,
// getEnums). Settlement, fee and compliance internals are never part of a response, so every object
// is closed: a member that leaks is a contract failure.
import { pageOf } from '../http/responses.ts';
import * as z from '../zod.ts';
import { supportedTransactionType, transactionTypes } from './catalogue-schema.ts';
import { DIRECTIONS, FLOWS, LIMIT_DURATIONS, type LimitScope } from './schema.ts';
import { VOCABULARY_NAMES, vocabularies } from './vocabularies.ts';

const code = z.string().check(z.regex(/^[A-Z0-9]{1,12}$/, 'must be 1 to 12 upper-case letters or digits'));
const shortTransactionType = z.enum(['C2C', 'C2B', 'B2C', 'B2B']);

export const connectorResource = z.strictObject({
  id: z.string().check(z.describe('A lower-case slug.')),
  name: z.string(),
  description: z.string(),
  acceptedAsset: code.check(
    z.describe('What the connector takes in: a registry asset (off-ramp) or ISO 4217 currency.'),
  ),
  destinationAsset: code.check(
    z.describe('What it pays out: an ISO 4217 currency (off-ramp) or a registry asset.'),
  ),
  direction: z.enum(DIRECTIONS),
  method: z.string().check(z.describe('BANK, MOMO, CASH…')),
  flow: z.enum(FLOWS),
  status: z.enum(['ACTIVE', 'INACTIVE', 'MAINTENANCE']),
  requiresQuote: z.boolean(),
  isActive: z.boolean(),
  methodProvider: z.strictObject({ name: z.string(), description: z.string(), imageUrl: z.url() }),
  limits: z.array(
    z.strictObject({
      scope: z.enum(Object.keys(LIMIT_DURATIONS) as [LimitScope, ...LimitScope[]]),
      type: z.enum(['AMOUNT', 'COUNT']),
      duration: z
        .number()
        .check(z.int(), z.gte(0), z.describe('Seconds: 0, 86400, 604800 or 2592000 by scope.')),
      minValue: z.number().check(z.gte(0)),
      maxValue: z.number().check(z.positive()),
      currency: z.nullable(code).check(z.describe('null for COUNT limits.')),
    }),
  ),
  transactionTypes,
  supportedTransactionType,
  region: z.strictObject({ iso: z.string().check(z.regex(/^[A-Z]{2}$/)) }),
});
export const connectorPage = pageOf(connectorResource);

export const connectorWithExecutionResource = z.extend(connectorResource, {
  execution: z
    .array(
      z.strictObject({
        step: z.number().check(z.int(), z.positive()),
        name: z.string(),
        path: z.string(),
        method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
        requestDefinition: z
          .record(z.string(), z.unknown())
          .check(z.describe('A JSON Schema of the request.')),
        responseDefinition: z
          .record(z.string(), z.unknown())
          .check(z.describe('A JSON Schema of the response.')),
        additionalInstructions: z.string(),
      }),
    )
    .check(
      z.describe('The steps of the requested transaction type; [] when the connector does not list it.'),
    ),
});

const requirementItem = z.strictObject({
  field: z.string().check(z.describe('The member path, e.g. `individual.dateOfBirth`.')),
  type: z.enum(['string', 'date', 'country', 'phone', 'email', 'address', 'enum']),
  required: z.boolean(),
  vocabulary: z
    .optional(z.enum(VOCABULARY_NAMES))
    .check(z.describe('For `enum` fields: the list of GET /payments/enums.')),
});

export const requirementsResource = z.strictObject({
  connectorId: z.string(),
  transactionType: shortTransactionType,
  sender: z.array(requirementItem),
  beneficiary: z.array(requirementItem),
  destination: z.array(requirementItem),
});

const vocabulary = z.array(z.strictObject({ code: z.string(), label: z.string() }));
export const enumsResource = z.strictObject({
  purposeOfRemittance: vocabulary,
  sourceOfFunds: vocabulary,
  idTypes: vocabulary,
});

export const connectorExample: z.input<typeof connectorResource> = {
  id: 'za-bank-offramp-usdc-zar',
  name: 'South Africa bank payout',
  description: 'USDC to ZAR payouts to any South African bank account over RTC/PayShap.',
  acceptedAsset: 'USDC',
  destinationAsset: 'ZAR',
  direction: 'OFF_RAMP',
  method: 'BANK',
  flow: 'STANDARD',
  status: 'ACTIVE',
  requiresQuote: true,
  isActive: true,
  methodProvider: {
    name: 'PayShap',
    description: 'Rapid payments between South African banks',
    imageUrl: 'https://assets.payments-gateway.dev/providers/payshap.svg',
  },
  limits: [
    { scope: 'TRANSACTION', type: 'AMOUNT', duration: 0, minValue: 1, maxValue: 10000, currency: 'USDC' },
    { scope: 'DAILY', type: 'AMOUNT', duration: 86400, minValue: 0, maxValue: 50000, currency: 'USDC' },
  ],
  transactionTypes: [
    { type: 'C_2_C', status: 'ONLINE' },
    { type: 'B_2_C', status: 'ONLINE' },
  ],
  supportedTransactionType: { b2b: false, b2c: true, c2b: false, c2c: true },
  region: { iso: 'ZA' },
};

export const connectorWithExecutionExample: z.input<typeof connectorWithExecutionResource> = {
  ...connectorExample,
  execution: [
    {
      step: 1,
      name: 'Read the compliance requirements',
      path: '/v1/payments/requirements?connectorId=za-bank-offramp-usdc-zar&transactionType=C2C',
      method: 'GET',
      requestDefinition: {},
      responseDefinition: { type: 'object', required: ['sender', 'beneficiary', 'destination'] },
      additionalInstructions:
        'Make sure the beneficiary and its payment destination carry every required field.',
    },
  ],
};

export const requirementsExample: z.input<typeof requirementsResource> = {
  connectorId: 'za-bank-offramp-usdc-zar',
  transactionType: 'C2C',
  sender: [{ field: 'purpose', type: 'enum', required: true, vocabulary: 'purposeOfRemittance' }],
  beneficiary: [
    { field: 'individual.firstName', type: 'string', required: true },
    { field: 'individual.dateOfBirth', type: 'date', required: true },
  ],
  destination: [{ field: 'accountNumber', type: 'string', required: true }],
};

/** The vocabularies are data: the example is what the route answers today. */
export const enumsExample: z.input<typeof enumsResource> = {
  purposeOfRemittance: [...vocabularies.purposeOfRemittance],
  sourceOfFunds: [...vocabularies.sourceOfFunds],
  idTypes: [...vocabularies.idTypes],
};
