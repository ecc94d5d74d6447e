// The OpenAPI 3.1 document, generated: paths from lib/routes.ts, request schemas from each operation's
// own zod schemas (lib/operations, the ones that validate requests), responses from
// openapi/operation-docs.ts and the shared problem statuses (openapi/problems.ts).

import { operationFor } from '../lib/operations/index.ts';
import { type Route, routes } from '../lib/routes.ts';
import type * as z from '../lib/zod.ts';
import packageJson from '../package.json' with { type: 'json' };
import { apiDescription, ruleTags } from './description.ts';
import { headers, securitySchemes } from './fixed-components.ts';
import { type OperationName, operationDocs } from './operation-docs.ts';
import { parametersOf, sharedParameters } from './parameters.ts';
import {
  limitDescriptionOf,
  problemRef,
  problemResponses,
  problemResponsesByStatus,
  problemStatusesOf,
  UNMATCHED_REQUEST_STATUSES,
} from './problems.ts';
import { requestExamples } from './request-examples.ts';
import { type SchemaComponents, schemaComponents } from './schemas.ts';
import { tagDescriptions } from './tag-docs.ts';
import type { JsonSchema, OpenApiResponse } from './types.ts';

export type OpenApiDocument = JsonSchema & {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, OpenApiResponse>;
    headers: Record<string, unknown>;
    [key: string]: unknown;
  };
  'x-unmatched-requests': { description: string; responses: Record<string, OpenApiResponse> };
};
export interface OpenApiOperation {
  operationId: string;
  responses: Record<string, OpenApiResponse | { $ref: string; description?: string }>;
  [key: string]: unknown;
}

export interface DocumentOptions {
  /** Where the API is; default `/v1`, relative to wherever the document is served from. */
  serverUrl?: string;
}

/** `createWallet` → `CreateWalletRequest`. */
const requestBodyName = (operation: string) => `${operation[0]?.toUpperCase()}${operation.slice(1)}Request`;

/** A route's 429: its request limit, after the operation's own limit where it has one. */
const limit429 = (route: Route, own: string | undefined) =>
  own ? `${own} Or: ${limitDescriptionOf(route)}` : limitDescriptionOf(route);

/** One path item entry: the route's words, security, parameters, body and responses. */
function operationObject(route: Route, components: SchemaComponents): OpenApiOperation {
  const op = operationFor(route);
  const doc = operationDocs[route.operation as OperationName];
  const { success, accepted } = doc;
  const jsonResponse = (answer: { description: string; schema: z.core.$ZodType; example: unknown }) => ({
    description: answer.description,
    headers: { 'X-Request-Id': { $ref: '#/components/headers/XRequestId' } },
    content: {
      'application/json': {
        schema: components.responseRef(answer.schema),
        examples: { example: { value: answer.example } },
      },
    },
  });
  const responses: OpenApiOperation['responses'] = {
    [success.status]: jsonResponse(success),
    ...(doc.alsoOk ? { 200: jsonResponse({ ...success, description: doc.alsoOk }) } : {}),
    ...(accepted ? { 202: jsonResponse(accepted) } : {}),
  };
  for (const status of problemStatusesOf(route))
    responses[status] = problemRef(
      status,
      status === 429 ? limit429(route, doc.problems?.[429]) : doc.problems?.[status],
    );
  const examples = requestExamples[route.operation as OperationName];
  const requestBody = {
    required: true,
    content: {
      'application/json': {
        schema: { $ref: `#/components/schemas/${requestBodyName(route.operation)}` },
        ...(examples ? { examples } : {}),
      },
    },
  };
  return {
    operationId: route.operation,
    tags: [doc.tag],
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    security: securityOf(route.auth),
    parameters: parametersOf(op, doc.query),
    ...(op.body ? { requestBody } : {}),
    responses,
  };
}

/** What a route's `auth` asks for; a provider's notification carries its own signature, no scheme of ours. */
function securityOf(auth: Route['auth']): OpenApiOperation['security'] {
  if (auth === 'token') return [{ serviceAuth: [], bearerAuth: [] }, { personBearer: [] }];
  if (auth === 'apiKey') return [{ serviceAuth: [] }];
  if (auth === 'person') return [{ personBearer: [] }];
  if (auth === 'session') return [{ portalSession: [] }];
  return [];
}

/** Tags of the business portal's routes (sign-in, team): listed after the integrator's resources. */
const PORTAL_TAGS = ['Portal', 'Team', 'Developers'];

export function openApiDocument(options: DocumentOptions = {}): OpenApiDocument {
  const bodies: Record<string, z.core.$ZodType> = {};
  for (const route of routes) {
    const { body } = operationFor(route);
    if (body) bodies[requestBodyName(route.operation)] = body;
  }
  const components = schemaComponents(bodies);
  const paths: Record<string, Record<string, OpenApiOperation>> = {};
  for (const route of routes) {
    const pathItem = paths[route.path] ?? {};
    paths[route.path] = pathItem;
    pathItem[route.method.toLowerCase()] = operationObject(route, components);
  }

  return {
    openapi: '3.1.1',
    info: {
      title: 'Payments gateway API',
      version: packageJson.version,
      description: apiDescription(),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: options.serverUrl ?? '/v1' }],
    security: [{ serviceAuth: [], bearerAuth: [] }],
    tags: [
      // The integrator's resources first; the portal's own routes after them.
      ...[...new Set(Object.values(operationDocs).map((d) => d.tag))]
        .sort((a, b) => Number(PORTAL_TAGS.includes(a)) - Number(PORTAL_TAGS.includes(b)))
        .map((name) => {
          const description = tagDescriptions[name];
          if (!description) throw new Error(`Tag ${name} has no description in openapi/tag-docs.ts`);
          return { name, description };
        }),
      // After the resources: the page opens on the quick start and the first operation.
      ...ruleTags(),
    ],
    paths,
    components: {
      schemas: components.schemas,
      responses: problemResponses(routes.flatMap(problemStatusesOf)),
      parameters: sharedParameters,
      headers,
      securitySchemes,
    },
    'x-unmatched-requests': {
      description:
        'Requests no route matches are answered by the fallback function (API Gateway’s $default route), without authentication: 404, 405 with `Allow` for a known path with another method, 400 for a path that is not valid percent-encoded UTF-8. Removed routes answer exactly like unknown ones.',
      // Written out, not referenced: a $ref only an extension holds would leave an unused component.
      responses: problemResponsesByStatus(UNMATCHED_REQUEST_STATUSES),
    },
  };
}
