// Applications, their API keys and clients, and associations: the records authentication reads.
import { exists } from '../db/conditions.ts';
import { type Entity, entity, recordOf } from '../db/entity.ts';
import { createIfAbsent, firstRecord, getRecord, updateIf } from '../db/items.ts';
import {
  type CredentialKind,
  type IndexKeys,
  type ItemKey,
  keys,
  tenantOf,
  tenantScope,
} from '../db/keys.ts';
import { listPartition, type PageRequest, positionOn, queryPage } from '../db/paginate.ts';
import type { Environment, Tenant } from '../tenant.ts';

export interface ApplicationRecord {
  applicationId: string;
  /** The one association the application is registered for. */
  associationId: string;
  name: string;
  environment: Environment;
  createdAt: string;
}

/** What a tenant's people see of a credential besides its id (lib/auth/tenant-credentials.ts). */
interface CredentialLabels {
  /** A name its creator gave it ("CI server"). */
  name?: string;
  /** The secret's last four characters, to recognise it by: 24 of its 256 random bits. */
  last4?: string;
  /** The person who created it in the portal; absent when the platform team did (admin CLI, seed). */
  createdBy?: string;
}

export interface ApiKeyRecord extends CredentialLabels {
  keyId: string;
  keyHash: string;
  applicationId: string;
  environment: Environment;
  /** The application's association: the key is listed in its tenant. Absent on keys made before it was kept. */
  associationId?: string;
  createdAt: string;
  revokedAt?: string;
}

export interface ClientRecord extends CredentialLabels {
  clientId: string;
  secretHash: string;
  applicationId: string;
  /** Absent for a client registered without an association: its tokens are refused with 403. */
  associationId?: string;
  /** Its application's. Absent on clients made before it was kept (they are not listed in a tenant). */
  environment?: Environment;
  createdAt: string;
  revokedAt?: string;
}

export interface AssociationRecord {
  associationId: string;
  name: string;
  kind: 'business' | 'individual';
  environment: Environment;
  createdAt: string;
}

/** A tenant's key or client, in its tenant's scope too: found by id and listed there. */
const tenantKeysOf = (
  kind: CredentialKind,
  id: string,
  record: { environment?: Environment | undefined; associationId?: string | undefined; createdAt: string },
): IndexKeys => {
  if (!record.associationId || !record.environment) return {};
  const tenant = { environment: record.environment, associationId: record.associationId };
  return { ...keys.ofTenant(tenant, kind, id), ...keys.credentialListed(tenant, record.createdAt, id) };
};

export const applicationEntity = entity<ApplicationRecord>({
  type: 'application',
  keyOf: (record) => keys.application(record.applicationId),
  indexKeysOf: (record) => keys.ofTenant(tenantOf(record), 'APPLICATION', record.applicationId),
});

const associationEntity = entity<AssociationRecord>({
  type: 'association',
  keyOf: (record) => keys.association(tenantOf(record)),
});

/** API keys are found by their hash; the admin CLI lists an application's keys on the platform index. */
export const apiKeyEntity = entity<ApiKeyRecord>({
  type: 'apiKey',
  keyOf: (record) => keys.apiKey(record.keyHash),
  indexKeysOf: (record) => ({
    ...keys.byApplication(record.applicationId, 'APIKEY', record.keyId),
    ...tenantKeysOf('APIKEY', record.keyId, record),
  }),
});

export const clientEntity = entity<ClientRecord>({
  type: 'client',
  keyOf: (record) => keys.client(record.clientId),
  indexKeysOf: (record) => ({
    ...keys.byApplication(record.applicationId, 'CLIENT', record.clientId),
    ...tenantKeysOf('CLIENT', record.clientId, record),
  }),
});

/** Writes a new record; its id is random (or a hash of 256 random bits), so an existing item is a bug. */
async function putNew<R>(definition: Entity<R>, record: R): Promise<void> {
  if ((await createIfAbsent(definition, record)).outcome !== 'written')
    throw new Error(`A ${definition.type} with this id already exists`);
}

export const findApiKey = (keyHash: string) => getRecord<ApiKeyRecord>(keys.apiKey(keyHash));
export const findClient = (clientId: string) => getRecord<ClientRecord>(keys.client(clientId));
export const findApplication = (applicationId: string) =>
  getRecord<ApplicationRecord>(keys.application(applicationId));

export const putApplication = (record: ApplicationRecord) => putNew(applicationEntity, record);
export const putAssociation = (record: AssociationRecord) => putNew(associationEntity, record);
export const putApiKey = (record: ApiKeyRecord) => putNew(apiKeyEntity, record);
export const putClient = (record: ClientRecord) => putNew(clientEntity, record);

/** Revokes once: a second revocation keeps the first time. The record revoked, or undefined when there is none. */
async function revoke<R>(key: ItemKey, at: Date): Promise<R | undefined> {
  const revoked = await updateIf<R>(key, { setIfAbsent: { revokedAt: at.toISOString() } }, exists);
  return revoked.outcome === 'written' ? revoked.record : undefined;
}

export const revokeApiKey = (keyHash: string, at: Date) => revoke<ApiKeyRecord>(keys.apiKey(keyHash), at);
export const revokeClient = (clientId: string, at: Date) => revoke<ClientRecord>(keys.client(clientId), at);

/** The tenant's application (one per association: the admin CLI makes it with the tenant). */
export const findTenantApplication = (tenant: Tenant) =>
  firstRecord<ApplicationRecord>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantScope(tenant), ':prefix': 'APPLICATION#' },
  });

/** One of the tenant's API keys or clients by its id, in the tenant's scope: another tenant's is not found. */
export function findTenantCredential<K extends CredentialKind>(tenant: Tenant, kind: K, id: string) {
  const { gsi1pk, gsi1sk } = keys.ofTenant(tenant, kind, id);
  return firstRecord<K extends 'APIKEY' ? ApiKeyRecord : ClientRecord>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
    ExpressionAttributeValues: { ':pk': gsi1pk, ':sk': gsi1sk },
  });
}

/** A page of the tenant's API keys and clients, newest first. */
export const tenantCredentialPage = (tenant: Tenant, page: Omit<PageRequest, 'binding'>) =>
  queryPage(
    { ...listPartition('list1', keys.credentialList(tenant)), ScanIndexForward: false },
    { ...page, binding: { scope: tenantScope(tenant), query: 'credentials' } },
    positionOn('list1'),
    (item) => recordOf<ApiKeyRecord | ClientRecord>(item),
  );

export const findAssociation = (tenant: { environment: Environment; associationId: string }) =>
  getRecord<AssociationRecord>(keys.association(tenant));
