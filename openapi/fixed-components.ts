// The parts of components that no schema generates: the two security schemes and the headers the
// chain sets (lib/http/request-id.ts, lib/http/problem.ts) and the fallback's Allow.

export const securitySchemes = {
  serviceAuth: {
    type: 'apiKey',
    in: 'header',
    name: 'x-service-auth',
    description: 'The application’s API key (`pgw_<environment>_…`). Every route needs it.',
  },
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'An access token from POST /auth/token. Every route but POST /auth/token needs it.',
  },
  personBearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'A portal person’s token from POST /portal/token, sent without `x-service-auth`: bound to one tenant, its role read again on every call.',
  },
  portalSession: {
    type: 'apiKey',
    in: 'cookie',
    name: '__Host-pgw_session',
    description: 'The portal’s session cookie (POST /portal/sessions): HttpOnly, Secure, SameSite=Strict.',
  },
};

export const headers = {
  XRequestId: {
    required: true,
    description:
      'On every response: the caller’s own id when it is 8–128 of `A-Z a-z 0-9 . _ : -`, else a new UUID.',
    schema: { type: 'string' },
  },
  RetryAfter: {
    required: true,
    description: 'Seconds until the next window.',
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimit: {
    description:
      'Where the request stands in its request limit’s window (draft-ietf-httpapi-ratelimit-headers): `"<group>";r=<requests left>;t=<seconds to the next window>`. On every answer once the request was counted (after the `x-service-auth` key is proven; on the provider route, after the signature is).',
    schema: { type: 'string', pattern: '^"[a-z]+";r=\\d+;t=\\d+$' },
  },
  RateLimitPolicy: {
    description:
      'The request limit the request was counted in (draft-ietf-httpapi-ratelimit-headers): `"<group>";q=<quota>;w=<window seconds>`, on the same answers as `RateLimit`.',
    schema: { type: 'string', pattern: '^"[a-z]+";q=\\d+;w=\\d+$' },
  },
};

/** Only the fallback's 405 sets it, and that response is written out in x-unmatched-requests. */
export const allowHeader = {
  required: true,
  description: 'The methods the path takes.',
  schema: { type: 'string' },
};
