// What the API reference page opens with (info.description, Markdown): a two-minute quick start, then
// where the rest is. The rules every route follows are sections of their own (ruleTags: tags without
// operations, listed after the resources' tags), so the first operation is on the first screen. The page
// says what an integrator sees, never how the service is built. The error table is built from
// lib/http/problem.ts, so it cannot disagree with the bodies the API sends.
import { MAX_BODY_BYTES } from '../lib/http/json-body.ts';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../lib/http/pagination.ts';
import { type ProblemStatus, problemKinds } from '../lib/http/problem.ts';
import { DEFAULT_LIMITS, LIMIT_GROUPS, MAX_WINDOW_SECONDS, policyInWords } from '../lib/limits/policies.ts';
import { md } from './markdown.ts';
import { problemDescriptions } from './problems.ts';

const LIMIT_GROUP_ROUTES = {
  token: '`POST /auth/token` (every request whose key is proven, failed or not)',
  reads: 'every `GET`',
  writes: 'payments, quotes and every other change',
  sandbox: 'the sandbox helpers (`/sandbox/…`)',
  registrations: 'customer registrations (`PUT /customers/…/register/…`), each a call to a shared provider',
} as const;

function limitRows(): string {
  return LIMIT_GROUPS.map(
    (group) => `| \`${group}\` | ${LIMIT_GROUP_ROUTES[group]} | ${policyInWords(DEFAULT_LIMITS[group])} |`,
  ).join('\n');
}

export function apiDescription(): string {
  return md(
    'One REST API for registered integrators: Stellar wallets, beneficiaries, payment destinations, connectors, quotes, payments (P2P, swaps, atomic multi-transfers, off-ramps and on-ramps) with their transaction records and statements, and signed webhooks.',
    '',
    '**Quick start** (two minutes; on the local stack, `npm start` writes your sandbox credentials to `.local/credentials.json`):',
    '1. **A token**: `POST /auth/token` with your application’s key in `x-service-auth` and `{"clientId": "…", "clientSecret": "…"}` answers `{"accessToken": "eyJ…", "tokenType": "Bearer", "expiresIn": 900, …}`. Every other call sends both headers: `x-service-auth: <key>` and `Authorization: Bearer <accessToken>`.',
    '2. **A first wallet**: `POST /wallets` with `{"walletName": "Treasury", "assetCode": "USDC", "ownAccount": true}` answers 201 with its `id`; in sandbox, `POST /sandbox/wallets/{walletId}/fund` with `{"assetCode": "USDC", "amount": 1000}` gives it test money.',
    '3. **A first payment**: a second wallet the same way, then `POST /payments/p2p/own` with `{"transactionId": "<a new UUID>", "walletId": "<first>", "destinationWalletId": "<second>", "sendingAssetCode": "USDC", "amount": 25.5}` answers 202 with its `transactionRecordId`; `GET /transactions/{transactionRecordId}` shows it `completed` once the ledger has it (a second or so).',
    '',
    'Each tag below is one resource and starts with what holds for its routes. The business portal’s own routes follow them, and the rules every route follows come last: **Authentication**, **Errors**, **Requests**, **Rate limits**, **Retries**, **Pagination** and **Request ids**.',
  );
}

function errorsDescription(): string {
  const errorRows = (Object.keys(problemKinds) as unknown as ProblemStatus[])
    .map((status) => `| ${status} | \`${problemKinds[status].slug}\` | ${problemDescriptions[status]} |`)
    .join('\n');
  return md(
    'Errors are `application/problem+json` (RFC 7807): `type` (the deployment’s error base URL, by default `https://errors.payments-gateway.dev`, then `/` and the slug), `title`, `status`, `detail`, `instance` (the request path), `requestId`, and `errors[{field, message}]` when fields are at fault (the first 20; `moreErrors` counts the rest). `field` is the member’s path in the body (`transfers.0.amount`) or the query or path parameter’s name (`limit`, `assetCode`); an unknown member is reported as `is not accepted`. A 422’s title is `Validation Error`. A 500 reveals nothing; the error is logged with the requestId.',
    '',
    '| status | slug | when |',
    '|---|---|---|',
    errorRows,
  );
}

/** The rules every route follows, each a tag of its own with no operation (the page lists them last). */
export function ruleTags(): { name: string; description: string }[] {
  return [
    {
      name: 'Authentication',
      description: md(
        '- Every route needs the application’s `x-service-auth` key; every route but `POST /auth/token` also needs `Authorization: Bearer <token>`, a token from `POST /auth/token`. Missing or bad either is a 401 with `WWW-Authenticate: Bearer`; a token that has expired (its signature good, its `exp` past) is a 401 whose `detail` and `WWW-Authenticate` (`error="invalid_token", error_description="The access token expired"`, RFC 6750) say so: fetch a new one.',
        '- Tokens are ES256 JWTs: issuer, audience, expiry, `kid` and algorithm are checked; `alg: none` and unknown kids are refused, and so is a token without any of `exp`, `iat`, `iss`, `aud` (or `sub`, `app`), even one signed with the real key. A token lives 900 s (`expiresIn`); one whose `exp − iat` is longer (beyond 60 s of clock skew), whose `iat` lies more than 60 s ahead, or whose header carries or points at a key (`jku`, `x5u`, `jwk`, `x5c`) is refused whatever its signature.',
        '- A token is bound to the application it was issued to: presented with another application’s key, it is a 401.',
        '- The association is read from the token’s client record, which each server keeps for at most a minute after reading it: a revoked client’s tokens stop working within a minute of the revocation, and an `x-association-id` header is ignored. A client with no association gets a token (`associationId: null`) and a 403 on every other route until it has one.',
        '- Key material that cannot be fetched in time (3 s, one retry included) is a 504; unreachable, a 503. A rotated signing key verifies at once; a rotated cursor key or key-encryption key is in use everywhere within five minutes.',
        '- API keys look like `pgw_<environment>_<43 characters>` and client secrets `pgwcs_<43 characters>` (256 random bits each): the environment prefix tells a production key at a glance, to secret scanners and to people.',
      ),
    },
    { name: 'Errors', description: errorsDescription() },
    {
      name: 'Requests',
      description: md(
        'Every request is held to the same rules, by one chain no route can leave out:',
        `- Bodies: at most ${MAX_BODY_BYTES / 1024} KiB (413); \`Content-Type: application/json\` or \`+json\` (415); strictly UTF-8 (a malformed byte sequence is a 400 naming \`body\`, never replaced); nested at most 32 levels deep (a 400 naming \`body\`); every string and member name well-formed Unicode (a lone surrogate such as \`"\\ud800"\` is a 400 naming the member); every number exactly what the caller wrote (more significant digits than a double holds, such as \`9007199254740993\` or \`0.10000000000000001\`, is a 400 naming the member). A body on a route that takes none is a 400 naming \`body\`.`,
        '- Query: a member the route does not take (on routes that take no query, any member) is a 400 naming it; so is a repeated member (`?limit=1&limit=2`, `must not be repeated`) and a malformed percent-escape.',
        '- Path: a malformed percent-escape (`/v1/assets/%FF`) is a 400 naming `path`, answered before authentication like an unknown route.',
        '- Amounts, wherever a route takes one: a JSON number > 0 with at most 7 decimals (the ledger’s stroop) and at most 922337203685.4775807; anything else is a 400 naming the member. Amounts in answers are JSON numbers too, always in plain decimals (`0.0000001`, never `1e-7`), except balances, which are decimal strings with the ledger’s 7 places (`"1000.0000000"`). An asset’s `decimals` is how many places its amounts are shown with, not a limit on what a request may carry.',
        '- Ids: UUIDs are case-insensitive. Every id a caller sends (path, query or body: wallets, beneficiaries, destinations, transactions, webhooks, quotes) is read in lower case, so an upper-case id finds the same resource and a replay spelling it in upper case is the same request. An id that is not a UUID is a 400 naming it.',
        '- Tenancy: every resource belongs to the caller’s association and environment. Another tenant’s resource answers exactly like a missing one (the same 404, the same body but the id).',
        '- Requests no route matches are answered without authentication: 404 (the routes the contract removed, such as `GET /wallets/{walletId}/balances`, answer exactly like any unknown route, revealing nothing; a path without the `/v1` prefix that is a route with it says so), 405 with `Allow` for a known path with another method.',
      ),
    },
    {
      name: 'Rate limits',
      description: md(
        `Every application has its own limits, one per group of routes, so no tenant spends another’s capacity. A request is counted as soon as its \`x-service-auth\` key is proven, before its token, body or anything else is read; past the limit it is a 429 with \`Retry-After\`, and every answer once counted carries \`RateLimit\` and \`RateLimit-Policy\` (draft-ietf-httpapi-ratelimit-headers: \`RateLimit-Policy: "reads";q=100;w=2\`, \`RateLimit: "reads";r=37;t=1\`). A limit is a quota of requests in each fixed window of \`w\` seconds (a steady \`q/w\` a second, in bursts of up to \`q\`). The platform team sets an application’s own (windows up to ${MAX_WINDOW_SECONDS} s); the defaults:`,
        '',
        '| group | routes | default |',
        '|---|---|---|',
        limitRows(),
        '',
        'Requests without a valid key are limited per address at the edge, and per route as a ceiling above all applications together.',
      ),
    },
    {
      name: 'Retries',
      description:
        '`Idempotency-Key`: operations that list the header take one, Stripe-style (today `POST /sandbox/wallets/{walletId}/fund`); other routes ignore it. It is 1–255 printable ASCII characters (space to `~`), else a 400 naming `Idempotency-Key`. It names one request in the caller’s tenant (the same key in another tenant is unrelated): sent again with the same request, it gets the first request’s result, resuming the work when it was not finished (an answer of 202); with another request, it is a 409 naming `Idempotency-Key`. Without a key every request is new, so a retry may do the work twice. Payments have their own idempotency key, `transactionId` (see the Payments tag).',
    },
    {
      name: 'Pagination',
      description: `Lists take \`limit\` (1–${MAX_LIMIT}, default ${DEFAULT_LIMIT}; above ${MAX_LIMIT} reads as ${MAX_LIMIT}; anything else is a 400 naming \`limit\`) and \`cursor\`, and answer \`{data, pagination: {nextCursor, hasMore}}\`; on the last page \`nextCursor\` is null and \`hasMore\` false. A cursor is opaque and sealed, bound to the tenant and the query: a forged or altered cursor, or one issued to another tenant or for another query, is a 400 naming \`cursor\`. A request reads a bounded number of records whatever the collection’s size: where filters combine (\`GET /transactions?walletId=…&status=…\`, \`GET /connectors\` with several filters), a page may come back short, even empty, with \`hasMore\` true, and its \`nextCursor\` resumes where the read stopped; follow it until \`hasMore\` is false. \`hasMore: false\` always means there is nothing more.`,
    },
    {
      name: 'Request ids',
      description:
        'Every response carries `X-Request-Id`. A caller’s own `X-Request-Id` is kept when it is 8–128 characters of `A-Z a-z 0-9 . _ : -`; otherwise a new UUID is used. The service’s logs of the request carry it: quote it to support.',
    },
  ];
}
