// A tenant's API keys and clients as its people manage them (the portal's Developers page, and the
// /credentials routes): made for the tenant's one application, each secret answered once and
// stored only as its hash (credentials.ts), listed by prefix and last four, revoked at once. The admin CLI
// makes them with the same functions (lib/admin/tenants.ts).
import { notFound, Problem } from '../http/problem.ts';
import type { Environment, Tenant } from '../tenant.ts';
import { hashCredential, keyIdOf, newApiKey, newClientId, newClientSecret } from './credentials.ts';
import {
  type ApiKeyRecord,
  type ApplicationRecord,
  type ClientRecord,
  findTenantApplication,
  findTenantCredential,
  putApiKey,
  putClient,
  revokeApiKey,
  revokeClient,
  tenantCredentialPage,
} from './repo.ts';

/** Who made a credential and what they called it (both optional: the admin CLI names neither). */
export interface CredentialLabel {
  name?: string | undefined;
  createdBy?: string | undefined;
}

const labelsOf = (label: CredentialLabel) => ({
  ...(label.name ? { name: label.name } : {}),
  ...(label.createdBy ? { createdBy: label.createdBy } : {}),
});

/** What precedes the random part of an API key: its environment, at a glance (credentials.ts). */
export const apiKeyPrefix = (environment: Environment) => `pgw_${environment}_`;
const CLIENT_SECRET_PREFIX = 'pgwcs_';

/** What a key or a client records of its application and its secret (the last four; never the rest). */
const issuedBy = (application: ApplicationRecord, secret: string, label: CredentialLabel, now: Date) => ({
  applicationId: application.applicationId,
  environment: application.environment,
  last4: secret.slice(-4),
  ...labelsOf(label),
  createdAt: now.toISOString(),
});

/** A new API key of `application`: the record (hash, last four) and the key, which is never stored. */
export async function makeApiKey(application: ApplicationRecord, label: CredentialLabel, now: Date) {
  const apiKey = newApiKey(application.environment);
  const keyHash = hashCredential(apiKey);
  const record: ApiKeyRecord = {
    keyId: keyIdOf(keyHash),
    keyHash,
    associationId: application.associationId,
    ...issuedBy(application, apiKey, label, now),
  };
  await putApiKey(record);
  return { record, apiKey };
}

/** A new client of `application`, bound to `associationId` (or to none): the record and its secret, once. */
export async function makeClient(
  application: ApplicationRecord,
  associationId: string | null,
  label: CredentialLabel,
  now: Date,
) {
  const clientSecret = newClientSecret();
  const record: ClientRecord = {
    clientId: newClientId(),
    secretHash: hashCredential(clientSecret),
    ...(associationId ? { associationId } : {}),
    ...issuedBy(application, clientSecret, label, now),
  };
  await putClient(record);
  return { record, clientSecret };
}

/** An API key's id (keyIdOf: 12 hex digits) or a client's (a UUID): which of the two a credential is. */
export const isApiKeyId = (id: string) => /^[0-9a-f]{12}$/.test(id);

/** What anyone on the team sees of a key or a client: never its secret, never its hash. */
export function credentialOut(record: ApiKeyRecord | ClientRecord) {
  const apiKey = 'keyId' in record;
  const environment = record.environment ?? 'sandbox';
  return {
    id: apiKey ? record.keyId : record.clientId,
    kind: apiKey ? ('apiKey' as const) : ('client' as const),
    prefix: apiKey ? apiKeyPrefix(environment) : CLIENT_SECRET_PREFIX,
    last4: record.last4 ?? null,
    name: record.name ?? null,
    status: record.revokedAt ? ('revoked' as const) : ('active' as const),
    createdAt: record.createdAt,
    createdBy: record.createdBy ?? null,
    revokedAt: record.revokedAt ?? null,
  };
}

async function applicationOf(tenant: Tenant): Promise<ApplicationRecord> {
  const application = await findTenantApplication(tenant);
  // A tenant made before applications were kept in its scope: the platform team re-creates its keys.
  if (!application)
    throw new Problem(409, 'This tenant has no application to add credentials to: ask the platform team.');
  return application;
}

/** POST /credentials: a new API key or client of the tenant's application, its secret answered this once. */
export async function createTenantCredential(
  tenant: Tenant,
  kind: 'apiKey' | 'client',
  label: CredentialLabel,
  now: Date,
) {
  const application = await applicationOf(tenant);
  if (kind === 'apiKey') {
    const { record, apiKey } = await makeApiKey(application, label, now);
    return { ...credentialOut(record), secret: apiKey };
  }
  const { record, clientSecret } = await makeClient(application, tenant.associationId, label, now);
  return { ...credentialOut(record), secret: clientSecret };
}

export async function listTenantCredentials(
  tenant: Tenant,
  page: { limit: number; cursor?: string | undefined },
) {
  const found = await tenantCredentialPage(tenant, page);
  return { data: found.data.map(credentialOut), pagination: found.pagination };
}

/**
 * Revokes one of the tenant's keys or clients: the next request with the key, a token for the client,
 * or a token the client holds is a 401. Revoking twice keeps the first time. Another tenant's is a 404.
 */
export async function revokeTenantCredential(tenant: Tenant, id: string, now: Date) {
  const missing = () =>
    notFound('No such credential.', [
      { field: 'credentialId', message: 'is not one of your keys or clients' },
    ]);
  if (isApiKeyId(id)) {
    const key = await findTenantCredential(tenant, 'APIKEY', id);
    if (!key) throw missing();
    return credentialOut((await revokeApiKey(key.keyHash, now)) ?? key);
  }
  const client = await findTenantCredential(tenant, 'CLIENT', id);
  if (!client) throw missing();
  return credentialOut((await revokeClient(client.clientId, now)) ?? client);
}
