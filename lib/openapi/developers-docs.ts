// The Developers tag's operations: a tenant's API keys and clients, made and revoked by its people, and
// its request log (lib/auth/tenant-credentials.ts, lib/request-log).
import {
  apiKeyExample,
  apiKeyPage,
  apiKeyResource,
  clientExample,
  clientPage,
  clientResource,
  createdApiKeyExample,
  createdApiKeyResource,
  createdClientExample,
  createdClientResource,
} from '../auth/responses.ts';
import { requestLogEntryExample, requestLogPage } from '../request-log/responses.ts';
import { REQUEST_LOG_DAYS } from '../request-log/service.ts';

const pageExample = <T>(item: T) => ({ data: [item], pagination: { nextCursor: null, hasMore: false } });
const NO_APPLICATION = 'The tenant has no application to add it to (one made before they were kept).';

export const developersDocs = {
  listApiKeys: {
    tag: 'Developers',
    summary: 'List API keys',
    description:
      'The tenant’s API keys (`x-service-auth`), newest first, each by its prefix and last four characters: the key itself is answered once, when it is made, and never again.',
    success: {
      status: 200,
      description: 'A page of keys.',
      schema: apiKeyPage,
      example: pageExample(apiKeyExample),
    },
  },
  createApiKey: {
    tag: 'Developers',
    summary: 'Make an API key',
    description:
      'A new key for the tenant’s application, named as given. The answer holds the key, this once: it is stored only as its SHA-256 and shown nowhere again. Owners only.',
    success: {
      status: 201,
      description: 'The key, with its secret.',
      schema: createdApiKeyResource,
      example: createdApiKeyExample,
    },
    problems: { 409: NO_APPLICATION },
  },
  revokeApiKey: {
    tag: 'Developers',
    summary: 'Revoke an API key',
    description:
      'The next request with the key is a 401, whatever it carries. Revoking a revoked key answers it as it is (its first `revokedAt`). Owners only.',
    success: {
      status: 200,
      description: 'The key, revoked.',
      schema: apiKeyResource,
      example: apiKeyExample,
    },
    problems: { 404: 'No such key in this tenant.' },
  },
  listClients: {
    tag: 'Developers',
    summary: 'List clients',
    description:
      'The tenant’s clients (the `clientId` and `clientSecret` of POST /auth/token), newest first, each secret by its last four characters.',
    success: {
      status: 200,
      description: 'A page of clients.',
      schema: clientPage,
      example: pageExample(clientExample),
    },
  },
  createClient: {
    tag: 'Developers',
    summary: 'Make a client',
    description:
      'A new client of the tenant’s application, speaking for the tenant. The answer holds its secret, this once: it is stored only as its SHA-256 and shown nowhere again. Owners only.',
    success: {
      status: 201,
      description: 'The client, with its secret.',
      schema: createdClientResource,
      example: createdClientExample,
    },
    problems: { 409: NO_APPLICATION },
  },
  revokeClient: {
    tag: 'Developers',
    summary: 'Revoke a client',
    description:
      'No token is issued to it again (401), and every token it holds is refused at once (401). Owners only.',
    success: {
      status: 200,
      description: 'The client, revoked.',
      schema: clientResource,
      example: clientExample,
    },
    problems: { 404: 'No such client in this tenant.' },
  },
  listRequestLog: {
    tag: 'Developers',
    summary: 'Read the request log',
    description: `The tenant’s requests of the last ${REQUEST_LOG_DAYS} days that changed something (any method but GET) or failed (4xx, 5xx; not 429), whoever made them: an application (with the id of the key it presented) or a person of the team. A GET that succeeded is not logged, to keep the log to one small write per such request. Newest first, cursor-paginated.`,
    success: {
      status: 200,
      description: 'A page of entries.',
      schema: requestLogPage,
      example: pageExample(requestLogEntryExample),
    },
  },
} as const;
