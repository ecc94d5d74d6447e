// What POST /auth/token answers (service.ts IssuedToken).
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
