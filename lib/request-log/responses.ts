// What GET /request-log answers.
import { pageOf } from '../http/responses.ts';
import { PERSON_ROLES } from '../routes.ts';
import * as z from '../zod.ts';

export const requestLogEntryResource = z.strictObject({
  at: z.string().check(z.describe('When it was answered (ISO 8601).')),
  method: z.string(),
  path: z.string().check(z.describe('As called, without `/v1`.')),
  status: z.number().check(z.int()),
  requestId: z.string().check(z.describe('The X-Request-Id it was answered with.')),
  durationMs: z.number().check(z.int(), z.gte(0)),
  caller: z.strictObject({
    kind: z.enum(['application', 'person']),
    id: z.string().check(z.describe("The application's id, or the person's email.")),
    role: z
      .nullable(z.enum(PERSON_ROLES))
      .check(z.describe("A person's role then; null for an application.")),
    keyId: z
      .nullable(z.string())
      .check(z.describe('The id of the API key an application presented; null for a person.')),
  }),
  sourceIp: z.string(),
});

export const requestLogPage = pageOf(requestLogEntryResource);

export const requestLogEntryExample: z.infer<typeof requestLogEntryResource> = {
  at: '2026-11-24T10:00:00.000Z',
  method: 'POST',
  path: '/wallets',
  status: 422,
  requestId: '3e1c9a77-5d0b-4f2e-8a6c-1b9d7e4f2a30',
  durationMs: 38,
  caller: {
    kind: 'application',
    id: '5b0e8f2a-3c1d-4e7a-9f60-2d8b7c4a1e93',
    role: null,
    keyId: '3f9a1c0e7b2d',
  },
  sourceIp: '203.0.113.7',
};
