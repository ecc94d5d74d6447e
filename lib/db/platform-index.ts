// Look-ups by id alone, in whichever tenant holds the item: platform operations only (the admin CLI's
// KYC and destination reviews, credential listings). No API function may import this module: a tenant
// route reaches tenant data only through keys built from its own tenant (test/unit/platform-index.test.ts).
import { readAllPages } from './items.ts';
import { type IndexKeys, platformIndexKeys } from './keys.ts';

/** Items on the platform index under `gsi2pk`, all of them or only the one with `gsi2sk`. */
const onPlatformIndex = <R>({ gsi2pk, gsi2sk }: IndexKeys) =>
  readAllPages<R>({
    IndexName: 'platform',
    KeyConditionExpression: gsi2sk ? 'gsi2pk = :pk AND gsi2sk = :sk' : 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': gsi2pk, ...(gsi2sk ? { ':sk': gsi2sk } : {}) },
  });

/** The one item of `kind` with this id (WALLET, PAYDEST), or undefined. */
export async function findByPlatformId<R>(kind: 'WALLET' | 'PAYDEST', id: string): Promise<R | undefined> {
  return (await onPlatformIndex<R>(platformIndexKeys(kind, id)))[0];
}

/** Every item an application owns (its API keys and clients). */
export const listApplicationItems = <R>(applicationId: string): Promise<R[]> =>
  onPlatformIndex<R>({ gsi2pk: platformIndexKeys('APP', applicationId).gsi2pk });
