// Applications, their API keys and clients, and associations: the records authentication reads.
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.ts';
import { getRecord, putNewItem } from '../db/items.ts';
import { gsi1, type ItemKey, keys } from '../db/keys.ts';
import type { Environment } from '../http/types.ts';

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

const get = <T>(key: ItemKey) => getRecord<T>(key);
const putNew = putNewItem;

export const findApiKey = (keyHash: string) => get<ApiKeyRecord>(keys.apiKey(keyHash));
export const findClient = (clientId: string) => get<ClientRecord>(keys.client(clientId));
export const findApplication = (applicationId: string) =>
  get<ApplicationRecord>(keys.application(applicationId));

export const putApplication = (record: ApplicationRecord) =>
  putNew({ ...keys.application(record.applicationId), type: 'application', ...record });

export const putAssociation = (record: AssociationRecord) =>
  putNew({
    ...keys.association({ environment: record.environment, associationId: record.associationId }),
    type: 'association',
    ...record,
  });

export const putApiKey = (record: ApiKeyRecord) =>
  putNew({
    ...keys.apiKey(record.keyHash),
    ...gsi1.byApplication(record.applicationId, 'APIKEY', record.keyId),
    type: 'apiKey',
    ...record,
  });

export const putClient = (record: ClientRecord) =>
  putNew({
    ...keys.client(record.clientId),
    ...gsi1.byApplication(record.applicationId, 'CLIENT', record.clientId),
    type: 'client',
    ...record,
  });

/** API keys and clients of an application, for the admin CLI. */
export async function listCredentials(applicationId: string) {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `APP#${applicationId}` },
    }),
  );
  return Items as (ApiKeyRecord | ClientRecord)[];
}

const revoke = (key: { pk: string; sk: string }, at: Date) =>
  db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at)',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': at.toISOString() },
    }),
  );

export const revokeApiKey = (keyHash: string, at: Date) => revoke(keys.apiKey(keyHash), at);
export const revokeClient = (clientId: string, at: Date) => revoke(keys.client(clientId), at);

export const findAssociation = (tenant: { environment: Environment; associationId: string }) =>
  get<AssociationRecord>(keys.association(tenant));
