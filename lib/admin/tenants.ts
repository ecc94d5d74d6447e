// Tenant administration for the platform team (the admin CLI and the local seed use it).
import { randomUUID } from 'node:crypto';
import { hashCredential } from '../auth/credentials.ts';
import {
  type ApiKeyRecord,
  type ClientRecord,
  findApplication,
  putApplication,
  putAssociation,
  revokeApiKey,
  revokeClient,
} from '../auth/repo.ts';
import { makeApiKey, makeClient } from '../auth/tenant-credentials.ts';
import { listApplicationItems } from '../db/platform-index.ts';
import type { Environment } from '../tenant.ts';
import { AdminRefusal } from './refusal.ts';

export interface NewTenant {
  associationId: string;
  applicationId: string;
  apiKey: string;
  clientId: string;
  clientSecret: string;
  environment: Environment;
}

export async function createTenant(
  input: { name: string; environment: Environment; kind: 'business' | 'individual' },
  now = new Date(),
): Promise<NewTenant> {
  const associationId = randomUUID();
  const applicationId = randomUUID();
  const createdAt = now.toISOString();
  await putAssociation({
    associationId,
    name: input.name,
    kind: input.kind,
    environment: input.environment,
    createdAt,
  });
  await putApplication({
    applicationId,
    associationId,
    name: input.name,
    environment: input.environment,
    createdAt,
  });
  const { apiKey } = await addApiKey(applicationId, now);
  const { clientId, clientSecret } = await addClient(applicationId, associationId, now);
  return { associationId, applicationId, apiKey, clientId, clientSecret, environment: input.environment };
}

/** A request the CLI refuses, with the reason: it prints the message alone (one line) and exits 1. */
export class TenantAdminRefusal extends AdminRefusal {
  override name = 'TenantAdminRefusal';
}

async function applicationOrThrow(applicationId: string) {
  const application = await findApplication(applicationId);
  if (!application) throw new TenantAdminRefusal(`No application ${applicationId}`);
  return application;
}

/** A new API key for an application; the key itself is returned once and never stored. */
export async function addApiKey(applicationId: string, now = new Date()) {
  const { record, apiKey } = await makeApiKey(await applicationOrThrow(applicationId), {}, now);
  return { applicationId, keyId: record.keyId, apiKey };
}

/** A new client; with associationId null it has none (its tokens are refused with 403). */
export async function addClient(applicationId: string, associationId: string | null, now = new Date()) {
  const application = await applicationOrThrow(applicationId);
  // A client speaks for its association on every route: only the application's own (of its own
  // environment) is acceptable, never another tenant's, the other environment's or one that does not exist.
  if (associationId !== null && associationId !== application.associationId) {
    throw new TenantAdminRefusal(
      `Association ${associationId} is not application ${applicationId}'s: a client can only be bound to its application's own association (${application.associationId}, ${application.environment}).`,
    );
  }
  const { record, clientSecret } = await makeClient(application, associationId, {}, now);
  return { applicationId, clientId: record.clientId, clientSecret, associationId };
}

export async function revokeApiKeyByValue(apiKey: string, now = new Date()) {
  if (!(await revokeApiKey(hashCredential(apiKey), now)))
    throw new TenantAdminRefusal(
      'No such API key: check its value, or revoke it by --application and --key-id',
    );
}

export async function revokeClientById(clientId: string, now = new Date()) {
  if (!(await revokeClient(clientId, now)))
    throw new TenantAdminRefusal(`No client ${clientId}: 'credentials list --application <id>' lists them`);
}

export async function revokeApiKeyById(applicationId: string, keyId: string, now = new Date()) {
  const key = (await listApplicationItems<ApiKeyRecord | ClientRecord>(applicationId)).find(
    (c): c is ApiKeyRecord => 'keyId' in c && c.keyId === keyId,
  );
  if (!key) throw new TenantAdminRefusal(`No API key ${keyId} on application ${applicationId}`);
  await revokeApiKey(key.keyHash, now);
  return { applicationId, keyId, revoked: true };
}

export const associationOf = async (applicationId: string) =>
  (await applicationOrThrow(applicationId)).associationId;

/** Ids and states only: secrets are never stored, and hashes are not for display. */
export async function listApplicationCredentials(applicationId: string) {
  await applicationOrThrow(applicationId);
  const records = await listApplicationItems<ApiKeyRecord | ClientRecord>(applicationId);
  return {
    apiKeys: records
      .filter((r): r is ApiKeyRecord => 'keyId' in r)
      .map(({ keyId, createdAt, revokedAt }) => ({ keyId, createdAt, revokedAt: revokedAt ?? null })),
    clients: records
      .filter((r): r is ClientRecord => 'clientId' in r)
      .map(({ clientId, associationId, createdAt, revokedAt }) => ({
        clientId,
        associationId: associationId ?? null,
        createdAt,
        revokedAt: revokedAt ?? null,
      })),
  };
}
