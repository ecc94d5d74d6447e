// The document's introduction (info.description, Markdown): what holds for every route. The error
// table is built from lib/http/problem.ts, so it cannot disagree with the bodies the API sends.
import { MAX_BODY_BYTES } from '../http/json-body.ts';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../http/pagination.ts';
import { type ProblemStatus, problemKinds } from '../http/problem.ts';
import { problemDescriptions } from './problems.ts';

export function apiDescription(): string {
  const errorRows = (Object.keys(problemKinds) as unknown as ProblemStatus[])
    .map((status) => `| ${status} | \`${problemKinds[status].slug}\` | ${problemDescriptions[status]} |`)
    .join('\n');
  return `One REST API for registered integrators: Stellar wallets, beneficiaries, payment destinations, connectors, quotes, payments (P2P, swaps, atomic multi-transfers) with their transaction records, and signed webhooks.

**Authentication.** Every route needs the application's \`x-service-auth\` key; every route but \`POST /auth/token\` also needs \`Authorization: Bearer <token>\`, a token from \`POST /auth/token\` (900 s). A token works only with the key of the application it was issued to.

**Errors** are \`application/problem+json\` (RFC 7807): \`type\` (the deployment's error base URL and the slug, by default \`https://errors.payments-gateway.dev/<slug>\`), \`title\`, \`status\`, \`detail\`, \`instance\` (the request path), \`requestId\`, and \`errors[{field, message}]\` when fields are at fault (\`field\` is the member path, \`transfers.0.amount\`, or the query or path parameter's name).

| status | slug | when |
|---|---|---|
${errorRows}

**Every request** is held to the same rules: bodies at most ${MAX_BODY_BYTES / 1024} KiB, \`application/json\` (or \`+json\`), strict UTF-8, nested at most 32 levels, numbers exactly as written; a body on a route that takes none, a query member the route does not take, and a repeated query member are 400s naming them. Amounts are JSON numbers > 0 with at most 7 decimals.

**Retries.** Operations that list the \`Idempotency-Key\` header take one (1–255 printable ASCII characters): the same key with the same request gets the first request's result, resuming it when it answered 202; the same key with another request is a 409 naming \`Idempotency-Key\`. Keys are scoped to the caller; without one, every request is new.

**Pagination.** Lists take \`limit\` (1–${MAX_LIMIT}, default ${DEFAULT_LIMIT}) and \`cursor\` and answer \`{data, pagination: {nextCursor, hasMore}}\`; on the last page \`nextCursor\` is null and \`hasMore\` false. A request reads a bounded number of records whatever the collection's size: where filters combine, a page may come back short (even empty) with \`hasMore\` true, and its \`nextCursor\` resumes where the read stopped; follow it until \`hasMore\` is false.

**Request ids.** Every response carries \`X-Request-Id\`; a caller's own id is kept when it is 8–128 characters of \`A-Z a-z 0-9 . _ : -\`.`;
}
