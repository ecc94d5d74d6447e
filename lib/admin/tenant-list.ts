// `tenant list`: every association with its applications, and each application's API keys and clients
// with their ages (never a secret or a hash). A scan of the table for the two item types: a platform
// operation, run by hand, never on a request's path.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { ApplicationRecord, AssociationRecord } from '../auth/repo.ts';
import { db, tableName } from '../db/client.ts';
import { listApplicationCredentials } from './tenants.ts';

const DAY_MS = 86_400_000;

/** Whole days since an ISO instant: how old a key is. */
const ageInDays = (since: string, now: Date) => Math.floor((now.getTime() - Date.parse(since)) / DAY_MS);

async function scanTenantItems(): Promise<(ApplicationRecord | AssociationRecord)[]> {
  const items: (ApplicationRecord | AssociationRecord)[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: '#type IN (:application, :association)',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':application': 'application', ':association': 'association' },
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...((page.Items ?? []) as (ApplicationRecord | AssociationRecord)[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

export async function listTenants(now = new Date()) {
  const items = await scanTenantItems();
  const applications = items.filter((item): item is ApplicationRecord => 'applicationId' in item);
  const associations = items
    .filter((item): item is AssociationRecord => !('applicationId' in item))
    .sort((a, b) => a.environment.localeCompare(b.environment) || a.createdAt.localeCompare(b.createdAt));
  return Promise.all(
    associations.map(async ({ associationId, name, kind, environment, createdAt }) => ({
      associationId,
      name,
      kind,
      environment,
      createdAt,
      applications: await Promise.all(
        applications
          .filter((application) => application.associationId === associationId)
          .map(async ({ applicationId, name: applicationName, createdAt: since }) => {
            const { apiKeys, clients } = await listApplicationCredentials(applicationId);
            const aged = <T extends { createdAt: string }>(item: T) => ({
              ...item,
              ageDays: ageInDays(item.createdAt, now),
            });
            return {
              applicationId,
              name: applicationName,
              createdAt: since,
              apiKeys: apiKeys.map(aged),
              clients: clients.map(aged),
            };
          }),
      ),
    })),
  );
}
