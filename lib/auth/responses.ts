// What POST /auth/token answers (service.ts IssuedToken).
import { pageOf } from '../http/responses.ts';
import * as z from '../zod.ts';

export const tokenResponse = z.strictObject({
  accessToken: z
    .string()
    .check(z.regex(/^[\w-]+\.[\w-]+\.[\w-]+$/, 'must be a JWT'), z.describe('An ES256 JWT.')),
  tokenType: z.literal('Bearer'),
  expiresIn: z
    .number()
    .check(z.int(), z.positive(), z.describe('Seconds until the token expires (900 by default).')),
  associationId: z
    .nullable(z.string().check(z.minLength(1)))
    .check(
      z.describe(
        'The association the token acts for; null for a client without one (then every other route is 403).',
      ),
    ),
});

export const tokenExample: z.input<typeof tokenResponse> = {
  accessToken:
    'eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJhcHAiOiJhMSIsInN1YiI6ImMxIn0.c2lnbmF0dXJl',
  tokenType: 'Bearer',
  expiresIn: 900,
  associationId: '5b0e8f2a-3c1d-4e7a-9f60-2d8b7c4a1e93',
};

const credentialCommon = {
  name: z.nullable(z.string()).check(z.describe('The name it was given when made, if any.')),
  status: z.enum(['active', 'revoked']),
  createdAt: z.string(),
  createdBy: z
    .nullable(z.string())
    .check(z.describe('The person who made it in the portal; null when the platform team did.')),
  revokedAt: z.nullable(z.string()),
};

export const apiKeyResource = z.strictObject({
  keyId: z.string().check(z.describe('A short, non-secret handle (the first 12 hex digits of its hash).')),
  prefix: z.string().check(z.describe('What the key starts with: `pgw_<environment>_`.')),
  last4: z
    .nullable(z.string())
    .check(z.describe('Its last four characters; null for keys made before they were kept.')),
  ...credentialCommon,
});

export const createdApiKeyResource = z.extend(apiKeyResource, {
  apiKey: z
    .string()
    .check(
      z.describe('The key itself, for `x-service-auth`: answered this once, never stored or shown again.'),
    ),
});

export const clientResource = z.strictObject({
  clientId: z.string(),
  secretPrefix: z.string().check(z.describe('What its secret starts with: `pgwcs_`.')),
  secretLast4: z
    .nullable(z.string())
    .check(z.describe("Its secret's last four characters; null for clients made before they were kept.")),
  ...credentialCommon,
});

export const createdClientResource = z.extend(clientResource, {
  clientSecret: z
    .string()
    .check(z.describe('For POST /auth/token: answered this once, never stored or shown again.')),
});

export const apiKeyPage = pageOf(apiKeyResource);
export const clientPage = pageOf(clientResource);

export const apiKeyExample: z.infer<typeof apiKeyResource> = {
  keyId: '3f9a1c0e7b2d',
  prefix: 'pgw_sandbox_',
  last4: 'x7Qa',
  name: 'CI server',
  status: 'active',
  createdAt: '2026-11-24T10:00:00.000Z',
  createdBy: 'ada@acme.example',
  revokedAt: null,
};
export const createdApiKeyExample: z.infer<typeof createdApiKeyResource> = {
  ...apiKeyExample,
  apiKey: 'pgw_sandbox_Jq0cW3n5mZ8vT1yB6dK2hR9sL4pF7gX0aE5uN3x7Qa',
};
export const clientExample: z.infer<typeof clientResource> = {
  clientId: '8d1f4b2a-6c3e-4a9d-b7f0-1e2d3c4b5a69',
  secretPrefix: 'pgwcs_',
  secretLast4: 'm2Pz',
  name: 'CI server',
  status: 'active',
  createdAt: '2026-11-24T10:00:00.000Z',
  createdBy: 'ada@acme.example',
  revokedAt: null,
};
export const createdClientExample: z.infer<typeof createdClientResource> = {
  ...clientExample,
  clientSecret: 'pgwcs_R8tY2wQ5nB0vM7cX3kJ9hG4fD1sA6zL2eP0oI3m2Pz',
};
