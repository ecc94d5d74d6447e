import { pageQueryShape } from '../http/pagination.ts';
import * as z from '../zod.ts';

export const tokenRequest = z.object({
  clientId: z.string().check(z.minLength(1), z.maxLength(128)),
  clientSecret: z.string().check(z.minLength(1), z.maxLength(256)),
});

/** POST /credentials: an API key or a client, with a name to tell it by, or none. */
export const createCredentialBody = z.strictObject({
  kind: z.enum(['apiKey', 'client']),
  name: z.optional(z.string().check(z.trim(), z.minLength(1, 'must not be blank'), z.maxLength(64))),
});

/** An API key's id (12 hexadecimal digits) or a client's (a UUID), in either case. */
export const credentialIdParams = z.strictObject({
  credentialId: z
    .string()
    .check(
      z.regex(
        /^([0-9a-fA-F]{12}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/,
        'must be an API key id (12 hexadecimal digits) or a client id (a UUID)',
      ),
      z.toLowerCase(),
    ),
});

export const credentialsQuery = z.strictObject(pageQueryShape);
