// What the Auth routes answer: a token (service.ts IssuedToken), a tenant's API keys and clients.
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

export const credentialResource = z.strictObject({
  id: z
    .string()
    .check(
      z.describe(
        "An API key's id (12 hexadecimal digits, the start of its hash: not secret) or a client's `clientId`.",
      ),
    ),
  kind: z.enum(['apiKey', 'client']),
  prefix: z
    .string()
    .check(
      z.describe(
        'What the secret starts with: `pgw_<environment>_` for a key, `pgwcs_` for a client secret.',
      ),
    ),
  last4: z
    .nullable(z.string())
    .check(z.describe("The secret's last four characters; null for credentials made before they were kept.")),
  name: z.nullable(z.string()).check(z.describe('The name it was given when made, if any.')),
  status: z.enum(['active', 'revoked']),
  createdAt: z.string(),
  createdBy: z
    .nullable(z.string())
    .check(z.describe('The person who made it in the portal; null when the platform team did.')),
  revokedAt: z.nullable(z.string()),
});

export const createdCredentialResource = z.extend(credentialResource, {
  secret: z
    .string()
    .check(
      z.describe(
        'The API key (for `x-service-auth`) or the client secret (for POST /auth/token): answered this once, never stored or shown again.',
      ),
    ),
});

export const credentialPage = pageOf(credentialResource);

export const credentialExample: z.infer<typeof credentialResource> = {
  id: '3f9a1c0e7b2d',
  kind: 'apiKey',
  prefix: 'pgw_sandbox_',
  last4: 'x7Qa',
  name: 'CI server',
  status: 'active',
  createdAt: '2026-11-24T10:00:00.000Z',
  createdBy: 'ada@acme.example',
  revokedAt: null,
};
export const createdCredentialExample: z.infer<typeof createdCredentialResource> = {
  ...credentialExample,
  secret: 'pgw_sandbox_Jq0cW3n5mZ8vT1yB6dK2hR9sL4pF7gX0aE5uN3x7Qa',
};
