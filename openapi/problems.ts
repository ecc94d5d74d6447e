// Which problem statuses a route can answer, and the reusable OpenAPI responses that document them.
// The statuses every route shares come from the one Middy chain (lib/http/api-function.ts), so they
// are listed once here; each operation adds its own (openapi/operation-docs.ts).
import { type ProblemStatus, problemKinds } from '../lib/http/problem.ts';
import { problemBodyOf } from '../lib/http/responses.ts';
import { DEFAULT_LIMITS, limitGroupOf, policyInWords } from '../lib/limits/policies.ts';
import type { Route } from '../lib/routes.ts';
import * as z from '../lib/zod.ts';
import { allowHeader } from './fixed-components.ts';
import { type OperationName, operationDocs } from './operation-docs.ts';
import type { JsonSchema, OpenApiResponse } from './types.ts';

/**
 * What the chain can answer on any route: a bad request (query members, path parameters, body), a
 * refused x-service-auth key, a body over 64 KiB or not JSON (a body sent to a route that takes none is
 * held to the same checks), the caller's request limit (lib/limits), a bug, and key material (the JWKS,
 * the signing ring) unreachable or slow.
 */
const EVERY_ROUTE: ProblemStatus[] = [400, 401, 413, 415, 429, 500, 503, 504];
/** Token routes also refuse a client without an association, and a person whose role is short of the route's. */
const TOKEN_ROUTE: ProblemStatus[] = [403];

/** What the fallback function ($default) answers for a request no route matches. */
export const UNMATCHED_REQUEST_STATUSES: ProblemStatus[] = [400, 404, 405];

/** Every problem status a route documents, ascending: the shared ones and its operation's own. */
export function problemStatusesOf(route: Pick<Route, 'auth' | 'operation'>): ProblemStatus[] {
  const own = Object.keys(operationDocs[route.operation as OperationName].problems ?? {}).map(Number);
  const shared =
    route.auth === 'token' || route.auth === 'person' ? [...EVERY_ROUTE, ...TOKEN_ROUTE] : EVERY_ROUTE;
  return [...new Set([...shared, ...own] as ProblemStatus[])].sort((a, b) => a - b);
}

/** What a 429 of the route's request limit means: its group and default (lib/limits/policies.ts). */
export function limitDescriptionOf(route: Pick<Route, 'method' | 'path' | 'auth'>): string {
  const group = limitGroupOf(route);
  if (!group)
    return 'The connector’s notifications of this minute are used (counted once their signature verified); `Retry-After` says when to send again.';
  return `The application’s \`${group}\` request limit is used: by default ${policyInWords(DEFAULT_LIMITS[group])}, counted before anything else of the request is read; the admin CLI sets an application’s own. \`Retry-After\`, \`RateLimit\` and \`RateLimit-Policy\` say when and what (see Rate limits in the introduction).`;
}

/** The general meaning of each status; operations override it with their own words where it helps. */
export const problemDescriptions: Record<ProblemStatus, string> = {
  400: 'Malformed request: bad JSON, wrong type, missing or not-accepted member, bad pattern, bad `limit` or `cursor`, a repeated or unknown query member. `errors` names each field.',
  401: 'Missing or invalid `x-service-auth` key or bearer token, or wrong client credentials.',
  403: 'Authenticated but not permitted: the client has no association, or the person’s role is short of what the route needs.',
  404: 'No such resource for the caller (another tenant’s reads exactly like a missing one), or no such route.',
  405: 'A known path with another method; `Allow` lists the methods.',
  409: 'Conflicting state or a concurrent change.',
  413: 'The request body is larger than 64 KiB.',
  415: 'The request body is not `application/json` (or `+json`).',
  422: 'Well-formed values that break a rule or name nothing; `errors` names each field.',
  429: 'Too many requests; `Retry-After` says when to retry.',
  500: 'A bug. The body reveals nothing; quote the requestId to support.',
  502: 'A downstream service failed.',
  503: 'A dependency (key material, a rate source) is unavailable.',
  504: 'A dependency (key material, the ledger) did not answer in time, or the request ran out of the function’s time.',
};

/** `404` → `NotFound`: the name of the reusable response (components.responses) of a status. */
const responseName = (status: ProblemStatus): string => problemKinds[status].title.replace(/[^A-Za-z]/g, '');

/** A reference to a status's reusable response, with what it means here when that is worth saying. */
export const problemRef = (status: ProblemStatus, description?: string) => ({
  $ref: `#/components/responses/${responseName(status)}`,
  ...(description ? { description } : {}),
});

function problemExample(status: ProblemStatus) {
  const { slug, title } = problemKinds[status];
  const withFields = status === 400 || status === 422;
  return {
    type: `https://errors.payments-gateway.dev/${slug}`,
    title,
    status,
    detail: problemDescriptions[status],
    instance: '/v1/wallets',
    requestId: 'b7e2f0c4-1d3a-4e5b-9f6c-7a8b9c0d1e2f',
    ...(withFields ? { errors: [{ field: 'walletName', message: 'is required' }] } : {}),
  };
}

/** The body schema of a status, closed: its slug, title and status are fixed. */
function problemSchemaOf(status: ProblemStatus): JsonSchema {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(problemBodyOf(status), { target: 'draft-2020-12' });
  return schema;
}

/** components.responses: one problem+json response per status that any route answers. */
export function problemResponses(statuses: Iterable<ProblemStatus>): Record<string, OpenApiResponse> {
  return Object.fromEntries(
    Object.entries(problemResponsesByStatus(statuses)).map(([status, response]) => [
      responseName(Number(status) as ProblemStatus),
      response,
    ]),
  );
}

/** One problem+json response per status, keyed by the status. */
export function problemResponsesByStatus(statuses: Iterable<ProblemStatus>): Record<string, OpenApiResponse> {
  const headersOf = (status: ProblemStatus) => ({
    'X-Request-Id': { $ref: '#/components/headers/XRequestId' },
    ...(status === 429
      ? {
          'Retry-After': { $ref: '#/components/headers/RetryAfter' },
          RateLimit: { $ref: '#/components/headers/RateLimit' },
          'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
        }
      : {}),
    ...(status === 405 ? { Allow: allowHeader } : {}),
  });
  return Object.fromEntries(
    [...new Set(statuses)]
      .sort((a, b) => a - b)
      .map((status) => [
        String(status),
        {
          description: problemDescriptions[status],
          headers: headersOf(status),
          content: {
            'application/problem+json': {
              schema: problemSchemaOf(status),
              examples: { [problemKinds[status].slug]: { value: problemExample(status) } },
            },
          },
        },
      ]),
  );
}
