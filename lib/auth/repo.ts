// Applications, their API keys and clients, and associations: the records authentication reads.
import { exists } from '../db/conditions.ts';
import { type Entity, entity } from '../db/entity.ts';
import { createIfAbsent, getRecord, updateIf } from '../db/items.ts';
import { type ItemKey, keys, tenantOf } from '../db/keys.ts';
import type { Environment } from '../tenant.ts';

export interface ApplicationRecord {
  applicationId: string;
  /** The one association the application is registered for. */
  associationId: string;
  name: string;
  environment: Environment;
  createdAt: string;
}

export interface ApiKeyRecord {
  keyId: string;
  keyHash: string;
  applicationId: string;
  environment: Environment;
  createdAt: string;
  revokedAt?: string;
}

export interface ClientRecord {
  clientId: string;
  secretHash: string;
  applicationId: string;
  /** Absent for a client registered without an association: its tokens are refused with 403. */
  associationId?: string;
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

const applicationEntity = entity<ApplicationRecord>({
  type: 'application',
  keyOf: (record) => keys.application(record.applicationId),
});

const associationEntity = entity<AssociationRecord>({
  type: 'association',
  keyOf: (record) => keys.association(tenantOf(record)),
});

/** API keys are found by their hash; the admin CLI lists an application's keys on the platform index. */
const apiKeyEntity = entity<ApiKeyRecord>({
  type: 'apiKey',
  keyOf: (record) => keys.apiKey(record.keyHash),
  indexKeysOf: (record) => keys.byApplication(record.applicationId, 'APIKEY', record.keyId),
});

const clientEntity = entity<ClientRecord>({
  type: 'client',
  keyOf: (record) => keys.client(record.clientId),
  indexKeysOf: (record) => keys.byApplication(record.applicationId, 'CLIENT', record.clientId),
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

/** Revokes once: a second revocation keeps the first time. False when there is no such credential. */
async function revoke(key: ItemKey, at: Date): Promise<boolean> {
  const revoked = await updateIf(key, { setIfAbsent: { revokedAt: at.toISOString() } }, exists);
  return revoked.outcome !== 'missing';
}

export const revokeApiKey = (keyHash: string, at: Date) => revoke(keys.apiKey(keyHash), at);
export const revokeClient = (clientId: string, at: Date) => revoke(keys.client(clientId), at);

export const findAssociation = (tenant: { environment: Environment; associationId: string }) =>
  getRecord<AssociationRecord>(keys.association(tenant));
