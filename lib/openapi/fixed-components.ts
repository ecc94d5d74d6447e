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
};

/** Only the fallback's 405 sets it, and that response is written out in x-unmatched-requests. */
export const allowHeader = {
  required: true,
  description: 'The methods the path takes.',
  schema: { type: 'string' },
};
