// Tenant administration for the platform team (the admin CLI and the local seed use it).
import { randomUUID } from 'node:crypto';
import { hashCredential, keyIdOf, newApiKey, newClientId, newClientSecret } from '../auth/credentials.ts';
import {
  findApplication,
  putApiKey,
  putApplication,
  putAssociation,
  putClient,
  revokeApiKey,
  revokeClient,
} from '../auth/repo.ts';
import type { Environment } from '../http/types.ts';

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
  await putApplication({ applicationId, name: input.name, environment: input.environment, createdAt });
  const { apiKey } = await addApiKey(applicationId, now);
  const { clientId, clientSecret } = await addClient(applicationId, associationId, now);
  return { associationId, applicationId, apiKey, clientId, clientSecret, environment: input.environment };
}

async function applicationOrThrow(applicationId: string) {
  const application = await findApplication(applicationId);
  if (!application) throw new Error(`No application ${applicationId}`);
  return application;
}

/** A new API key for an application; the key itself is returned once and never stored. */
export async function addApiKey(applicationId: string, now = new Date()) {
  const application = await applicationOrThrow(applicationId);
  const apiKey = newApiKey(application.environment);
  const keyHash = hashCredential(apiKey);
  await putApiKey({
    keyId: keyIdOf(keyHash),
    keyHash,
    applicationId,
    environment: application.environment,
    createdAt: now.toISOString(),
  });
  return { applicationId, keyId: keyIdOf(keyHash), apiKey };
}

/** A new client; with associationId null it has none (its tokens are refused with 403). */
export async function addClient(applicationId: string, associationId: string | null, now = new Date()) {
  await applicationOrThrow(applicationId);
  const clientId = newClientId();
  const clientSecret = newClientSecret();
  await putClient({
    clientId,
    secretHash: hashCredential(clientSecret),
    applicationId,
    ...(associationId ? { associationId } : {}),
    createdAt: now.toISOString(),
  });
  return { applicationId, clientId, clientSecret, associationId };
}

export const revokeApiKeyByValue = (apiKey: string, now = new Date()) =>
  revokeApiKey(hashCredential(apiKey), now);
export const revokeClientById = (clientId: string, now = new Date()) => revokeClient(clientId, now);
