// What the portal's sign-in and team routes answer.
import { pageOf } from '../http/responses.ts';
import * as z from '../zod.ts';
import { ROLES } from './schema.ts';

const role = z.enum(ROLES);

export const membershipResource = z.strictObject({
  environment: z.enum(['sandbox', 'production']),
  associationId: z.string(),
  associationName: z.string(),
  role,
});

export const portalSessionResource = z.strictObject({
  email: z.string(),
  expiresAt: z.string().check(z.describe('When the session ends (ISO 8601); sign in again then.')),
  memberships: z.array(membershipResource),
});

export const portalTokenResource = z.strictObject({
  accessToken: z.string().check(z.describe('An ES256 JWT for the public API, bound to one tenant and role.')),
  tokenType: z.literal('Bearer'),
  expiresIn: z.number().check(z.int(), z.positive()),
  environment: z.enum(['sandbox', 'production']),
  associationId: z.string(),
  role,
  email: z.string(),
});

export const memberResource = z.strictObject({
  memberId: z.string(),
  email: z.string(),
  role,
  invitedBy: z.nullable(z.string()),
  createdAt: z.string(),
});

export const memberPage = z.strictObject({ data: z.array(memberResource) });

export const auditEntryResource = z.strictObject({
  at: z.string(),
  actor: z.string().check(z.describe('The person who acted (their email).')),
  role,
  action: z.string().check(z.describe('`METHOD /path` as called, or `sign-in`.')),
  status: z.number().check(z.int()),
  requestId: z.string(),
  sourceIp: z.string(),
});

export const auditPage = pageOf(auditEntryResource);

export type Membership = z.infer<typeof membershipResource>;
export type Member = z.infer<typeof memberResource>;
export type AuditEntry = z.infer<typeof auditEntryResource>;

export const signInAccepted = z.strictObject({ status: z.literal('sent'), detail: z.string() });
export const signedOut = z.strictObject({ status: z.literal('signed-out') });

export const membershipExample: Membership = {
  environment: 'sandbox',
  associationId: '5b0e8f2a-3c1d-4e7a-9f60-2d8b7c4a1e93',
  associationName: 'Acme Ltd',
  role: 'owner',
};
export const portalSessionExample: z.infer<typeof portalSessionResource> = {
  email: 'ada@acme.example',
  expiresAt: '2026-11-24T18:00:00.000Z',
  memberships: [membershipExample],
};
export const portalTokenExample: z.infer<typeof portalTokenResource> = {
  accessToken:
    'eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJhcHAiOiJwb3J0YWwiLCJzdWIiOiJhZGEifQ.c2lnbmF0dXJl',
  tokenType: 'Bearer',
  expiresIn: 300,
  environment: 'sandbox',
  associationId: membershipExample.associationId,
  role: 'owner',
  email: 'ada@acme.example',
};
export const memberExample: Member = {
  memberId: '0f8c7a52-1b6e-4d3a-9c2f-7e5d4b3a2c10',
  email: 'grace@acme.example',
  role: 'developer',
  invitedBy: 'ada@acme.example',
  createdAt: '2026-11-24T10:00:00.000Z',
};
export const auditEntryExample: AuditEntry = {
  at: '2026-11-24T10:00:00.000Z',
  actor: 'ada@acme.example',
  role: 'owner',
  action: 'POST /team/members',
  status: 201,
  requestId: '3e1c9a77-5d0b-4f2e-8a6c-1b9d7e4f2a30',
  sourceIp: '203.0.113.7',
};
