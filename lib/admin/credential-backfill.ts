// For a stage holding applications, API keys and clients made before a tenant's people could list them
// (the portal's Developers page, lib/auth/tenant-credentials.ts): gives each application its key in its
// tenant's scope, and each key and client its application's tenant and the keys that list it there, as
// their entities write them now. Without it, such a tenant's Developers page lists none of its own
// credentials and cannot make one (409: no application in its scope). Idempotent: run again, it writes the
// same keys. A client made without an association belongs to no tenant and is left as it is.
import {
  type ApiKeyRecord,
  type ApplicationRecord,
  apiKeyEntity,
  applicationEntity,
  type ClientRecord,
  clientEntity,
} from '../auth/repo.ts';
import { exists } from '../db/conditions.ts';
import type { Entity } from '../db/entity.ts';
import { updateIf } from '../db/items.ts';
import type { ItemKey } from '../db/keys.ts';
import { scanByType } from '../db/scan-by-type.ts';

type Credential = ApiKeyRecord | ClientRecord;

/** Sets `set` and the index keys its entity gives the record with it; only on an item that still exists. */
async function rewrite<R>(definition: Entity<R>, item: Record<string, unknown>, set: Partial<R>) {
  const record = { ...item, ...set } as R;
  await updateIf(
    { pk: item.pk, sk: item.sk } as ItemKey,
    { set: { ...set, ...definition.indexKeysOf?.(record) } },
    exists,
  );
}

/** Every application, API key and client given its tenant's keys; how many of each were written. */
export async function backfillCredentialKeys(): Promise<{
  application: number;
  apiKey: number;
  client: number;
}> {
  const counts = { application: 0, apiKey: 0, client: 0 };
  const applications = new Map<string, ApplicationRecord>();
  for await (const item of scanByType([applicationEntity.type])) {
    const application = item as unknown as ApplicationRecord;
    applications.set(application.applicationId, application);
    await rewrite(applicationEntity, item, {});
    counts.application += 1;
  }
  for await (const item of scanByType([apiKeyEntity.type, clientEntity.type])) {
    const credential = item as unknown as Credential & { type: 'apiKey' | 'client' };
    const application = applications.get(credential.applicationId);
    // A client registered without an association stays without one: its tokens are refused (403).
    const associationId =
      credential.associationId ?? (credential.type === 'apiKey' ? application?.associationId : undefined);
    const environment = credential.environment ?? application?.environment;
    if (!associationId || !environment) continue;
    const definition = (credential.type === 'apiKey' ? apiKeyEntity : clientEntity) as Entity<Credential>;
    await rewrite(definition, item, { associationId, environment });
    counts[credential.type] += 1;
  }
  return counts;
}
