// Path and query parameters, from the operation's own `params` and `query` schemas (input side: what
// a caller writes). The pagination members are the same zod schemas on every list, so they are one
// shared parameter each.
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyHeader } from '../lib/http/idempotency-key.ts';
import { cursorParam, DEFAULT_LIMIT, LARGEST_LIMIT, limitParam, MAX_LIMIT } from '../lib/http/pagination.ts';
import { SAFE_REQUEST_ID } from '../lib/http/request-id.ts';
import type { AnyOperation } from '../lib/operations/index.ts';
import * as z from '../lib/zod.ts';
import { limitSchema, stateRefinements } from './refinements.ts';
import type { JsonSchema } from './types.ts';

const inputSchemaOf = (schema: z.core.$ZodType): JsonSchema =>
  z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', override: stateRefinements }) as JsonSchema;

const withoutDialect = ({ $schema: _dialect, ...schema }: JsonSchema): JsonSchema => schema;

export const sharedParameters = {
  Limit: {
    name: 'limit',
    in: 'query',
    required: false,
    description: `Page size: a whole number from 1 (default ${DEFAULT_LIMIT}); any value above ${MAX_LIMIT} up to ${LARGEST_LIMIT} is taken and treated as ${MAX_LIMIT}. Anything else (0, a sign, a decimal point, ten digits) is a 400 naming \`limit\`.`,
    schema: limitSchema,
    example: 50,
  },
  Cursor: {
    name: 'cursor',
    in: 'query',
    required: false,
    description:
      'The `pagination.nextCursor` of the previous page. Opaque and sealed: bound to the caller and to the same filters; anything else is a 400 naming `cursor`.',
    schema: withoutDialect(inputSchemaOf(cursorParam)),
  },
  RequestId: {
    name: 'X-Request-Id',
    in: 'header',
    required: false,
    description:
      'Your id for this request, echoed in the response’s `X-Request-Id`, in the problem body’s `requestId` and in the gateway’s logs, when it is 8–128 characters of `A-Z a-z 0-9 . _ : -`; anything else (or none) is replaced by a new UUID, never refused.',
    schema: { type: 'string', pattern: SAFE_REQUEST_ID.source },
    example: 'order-7781:attempt-1',
  },
  IdempotencyKey: {
    name: IDEMPOTENCY_KEY_HEADER,
    in: 'header',
    required: false,
    description:
      'Your name for this request (a UUID, say), so that retrying it is safe: the same key with the same request gets the first request’s result (and resumes it when it was not finished); the same key with another request is a 409 naming `Idempotency-Key`. Keys are scoped to the caller. 1–255 printable ASCII characters, else a 400 naming `Idempotency-Key`. Without one, every request is new.',
    schema: withoutDialect(inputSchemaOf(idempotencyKeyHeader)),
    example: '5f1c2e9a-7b3d-4c8e-9a0f-1b2c3d4e5f60',
  },
};

/** Which shared parameter a query member is, when it is one. */
function sharedParameterRef(member: z.core.$ZodType): { $ref: string } | undefined {
  if (member === limitParam) return { $ref: '#/components/parameters/Limit' };
  if (member === cursorParam) return { $ref: '#/components/parameters/Cursor' };
  return undefined;
}

/** The members of an object schema, each as the JSON Schema of what a caller may send. */
function membersOf(
  schema: z.core.$ZodType | undefined,
): { name: string; zod: z.core.$ZodType; json: JsonSchema; required: boolean }[] {
  if (!schema) return [];
  if (!(schema instanceof z.core.$ZodObject)) throw new Error('Path and query schemas must be zod objects');
  const json = inputSchemaOf(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(schema._zod.def.shape as Record<string, z.core.$ZodType>).map(([name, zod]) => ({
    name,
    zod,
    json: json.properties?.[name] ?? {},
    required: json.required?.includes(name) ?? false,
  }));
}

/** Path parameters mean the same on every route that has them. */
const pathParameterDescriptions: Record<string, string> = {
  assetCode: 'A registry code, any case (`usdc` finds `USDC`).',
  walletId: 'The wallet’s id. Another tenant’s wallet reads as a missing one (404).',
  beneficiaryId: 'The beneficiary’s id. Another tenant’s reads as a missing one (404).',
  destinationId: 'The payment destination’s id.',
  connectorId: 'The connector’s id, a slug matched in any case.',
};

/** `queryDescriptions`: what the operation's own query members mean (openapi/operation-docs.ts). */
export function parametersOf(op: AnyOperation, queryDescriptions: Record<string, string> = {}): unknown[] {
  const described = (description: string | undefined) => (description ? { description } : {});
  const path = membersOf(op.params).map(({ name, json }) => ({
    name,
    in: 'path',
    required: true,
    ...described(pathParameterDescriptions[name]),
    schema: json,
  }));
  const query = membersOf(op.query).map(
    ({ name, zod, json, required }) =>
      sharedParameterRef(zod) ?? {
        name,
        in: 'query',
        required,
        ...described(queryDescriptions[name]),
        schema: json,
      },
  );
  const headers = op.idempotencyKey ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : [];
  return [...path, ...query, ...headers, { $ref: '#/components/parameters/RequestId' }];
}
