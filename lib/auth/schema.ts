import { pageQueryShape } from '../http/pagination.ts';
import { uuidField } from '../http/uuid-field.ts';
import * as z from '../zod.ts';

export const tokenRequest = z.object({
  clientId: z.string().check(z.minLength(1), z.maxLength(128)),
  clientSecret: z.string().check(z.minLength(1), z.maxLength(256)),
});

/** POST /api-keys and POST /clients: a name to tell it by, or none (one schema each: each is a component). */
const credentialBody = () =>
  z.strictObject({
    name: z.optional(z.string().check(z.trim(), z.minLength(1, 'must not be blank'), z.maxLength(64))),
  });
export const createApiKeyBody = credentialBody();
export const createClientBody = credentialBody();

export const keyIdParams = z.strictObject({
  keyId: z.string().check(z.regex(/^[0-9a-f]{12}$/, 'must be a key id (12 hexadecimal digits)')),
});
export const clientIdParams = z.strictObject({ clientId: uuidField });

export const credentialsQuery = z.strictObject(pageQueryShape);
