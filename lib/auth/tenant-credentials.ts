// A tenant's API keys and clients as its people manage them (the portal's Developers page, and the
// /api-keys and /clients routes): made for the tenant's one application, each secret answered once and
// stored only as its hash (credentials.ts), listed by prefix and last four, revoked at once. The admin CLI
// makes them with the same functions (lib/admin/tenants.ts).
import { notFound, Problem } from '../http/problem.ts';
import type { Environment, Tenant } from '../http/types.ts';
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

/** A new API key of `application`: the record (hash, last four) and the key, which is never stored. */
export async function makeApiKey(application: ApplicationRecord, label: CredentialLabel, now: Date) {
  const apiKey = newApiKey(application.environment);
  const keyHash = hashCredential(apiKey);
  const record: ApiKeyRecord = {
    keyId: keyIdOf(keyHash),
    keyHash,
    applicationId: application.applicationId,
    environment: application.environment,
    associationId: application.associationId,
    last4: apiKey.slice(-4),
    ...labelsOf(label),
    createdAt: now.toISOString(),
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
    applicationId: application.applicationId,
    ...(associationId ? { associationId } : {}),
    environment: application.environment,
    last4: clientSecret.slice(-4),
    ...labelsOf(label),
    createdAt: now.toISOString(),
  };
  await putClient(record);
  return { record, clientSecret };
}

const status = (record: { revokedAt?: string }) => (record.revokedAt ? 'revoked' : 'active');

const common = (record: ApiKeyRecord | ClientRecord) => ({
  name: record.name ?? null,
  status: status(record),
  createdAt: record.createdAt,
  createdBy: record.createdBy ?? null,
  revokedAt: record.revokedAt ?? null,
});

/** What anyone on the team sees of a key: never the key, never its hash. */
export const apiKeyOut = (record: ApiKeyRecord) => ({
  keyId: record.keyId,
  prefix: apiKeyPrefix(record.environment),
  last4: record.last4 ?? null,
  ...common(record),
});

export const clientOut = (record: ClientRecord) => ({
  clientId: record.clientId,
  secretPrefix: CLIENT_SECRET_PREFIX,
  secretLast4: record.last4 ?? null,
  ...common(record),
});

async function applicationOf(tenant: Tenant): Promise<ApplicationRecord> {
  const application = await findTenantApplication(tenant);
  // A tenant made before applications were kept in its scope: the platform team re-creates its keys.
  if (!application)
    throw new Problem(409, 'This tenant has no application to add credentials to: ask the platform team.');
  return application;
}

export async function createTenantApiKey(tenant: Tenant, label: CredentialLabel, now: Date) {
  const { record, apiKey } = await makeApiKey(await applicationOf(tenant), label, now);
  return { ...apiKeyOut(record), apiKey };
}

export async function createTenantClient(tenant: Tenant, label: CredentialLabel, now: Date) {
  const { record, clientSecret } = await makeClient(
    await applicationOf(tenant),
    tenant.associationId,
    label,
    now,
  );
  return { ...clientOut(record), clientSecret };
}

type Page = { limit: number; cursor?: string | undefined };

export async function listTenantApiKeys(tenant: Tenant, page: Page) {
  const found = await tenantCredentialPage<ApiKeyRecord>(tenant, 'APIKEY', page);
  return { data: found.data.map(apiKeyOut), pagination: found.pagination };
}

export async function listTenantClients(tenant: Tenant, page: Page) {
  const found = await tenantCredentialPage<ClientRecord>(tenant, 'CLIENT', page);
  return { data: found.data.map(clientOut), pagination: found.pagination };
}

/** Revokes one of the tenant's keys: the next request with it is a 401. Revoking twice keeps the first time. */
export async function revokeTenantApiKey(tenant: Tenant, keyId: string, now: Date) {
  const key = await findTenantCredential(tenant, 'APIKEY', keyId);
  if (!key) throw notFound('No such API key.', [{ field: 'keyId', message: 'is not one of your keys' }]);
  return apiKeyOut((await revokeApiKey(key.keyHash, now)) ?? key);
}

/** Revokes one of the tenant's clients: no token is issued to it again, and its tokens are refused at once. */
export async function revokeTenantClient(tenant: Tenant, clientId: string, now: Date) {
  const client = await findTenantCredential(tenant, 'CLIENT', clientId);
  if (!client)
    throw notFound('No such client.', [{ field: 'clientId', message: 'is not one of your clients' }]);
  return clientOut((await revokeClient(client.clientId, now)) ?? client);
}
