// The Developers tag's operations: a tenant's API keys and clients, made and revoked by its people, and
// its request log (lib/auth/tenant-credentials.ts, lib/request-log).
import {
  createdCredentialExample,
  createdCredentialResource,
  credentialExample,
  credentialPage,
  credentialResource,
} from '../lib/auth/responses.ts';
import { requestLogEntryExample, requestLogPage } from '../lib/request-log/responses.ts';
import { REQUEST_LOG_DAYS } from '../lib/request-log/service.ts';
import { lastPageExample } from './page-example.ts';

export const developersDocs = {
  listCredentials: {
    tag: 'Developers',
    summary: 'List API keys and clients',
    description:
      'The tenant’s API keys (`x-service-auth`) and clients (the `clientId` and `clientSecret` of POST /auth/token), newest first, each secret by its prefix and last four characters: a secret is answered once, when it is made, and never again.',
    success: {
      status: 200,
      description: 'A page of keys and clients.',
      schema: credentialPage,
      example: lastPageExample(credentialExample),
    },
  },
  createCredential: {
    tag: 'Developers',
    summary: 'Make an API key or a client',
    description:
      'A new API key (`kind: apiKey`) or client (`kind: client`, speaking for the tenant) of the tenant’s application, named as given. The answer holds its secret (`secret`), this once: it is stored only as its SHA-256 and shown nowhere again. Owners only.',
    success: {
      status: 201,
      description: 'The key or client, with its secret.',
      schema: createdCredentialResource,
      example: createdCredentialExample,
    },
    problems: { 409: 'The tenant has no application to add it to (one made before they were kept).' },
  },
  revokeCredential: {
    tag: 'Developers',
    summary: 'Revoke an API key or a client',
    description:
      'Within a minute (each server keeps a key or client it has read for at most a minute): from then on a request with a revoked key is a 401, whatever it carries; a revoked client gets no token (401) and every token it holds is refused (401). Revoking twice answers it as it is (its first `revokedAt`). Owners only.',
    success: {
      status: 200,
      description: 'The key or client, revoked.',
      schema: credentialResource,
      example: { ...credentialExample, status: 'revoked', revokedAt: '2026-11-25T09:00:00.000Z' },
    },
    problems: { 404: 'No such key or client in this tenant.' },
  },
  listRequestLog: {
    tag: 'Developers',
    summary: 'Read the request log',
    description: `The tenant’s requests of the last ${REQUEST_LOG_DAYS} days that changed something (any method but GET) or failed (4xx, 5xx; not 429), whoever made them: an application (with the id of the key it presented) or a person of the team. A GET that succeeded is not logged, to keep the log to one small write per such request. Newest first, cursor-paginated.`,
    success: {
      status: 200,
      description: 'A page of entries.',
      schema: requestLogPage,
      example: lastPageExample(requestLogEntryExample),
    },
  },
} as const;
