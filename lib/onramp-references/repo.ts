// On-ramp references (lib/db/keys.ts bespokeKeys): tenant-owned, one item per reference, written with
// the provider binding that lets a receipt, which names only the reference, find its tenant (a reference
// is bound once, to one tenant, for good), and with the tenant's counter, which caps how many references
// it holds: the page-numbered list reads them all by key condition, so the cap bounds that read.
import { absent, absentOrBelow, holds } from '../db/conditions.ts';
import { entity } from '../db/entity.ts';
import { getRecord, readAllPages, type TransactionWrite, transact } from '../db/items.ts';
import { bespokeKeys, tenantScope } from '../db/keys.ts';
import { bindingOf } from '../providers/service.ts';
import type { Environment, Tenant } from '../tenant.ts';

export interface ReferenceRecord {
  environment: Environment;
  associationId: string;
  reference: string;
  /** Our id of the binding: the provider issued the reference for it. */
  routeId: string;
  customerId: string;
  connectorId: string;
  walletId: string;
  /** The connector's settlement account: what pays receipts on the reference out. */
  settlementAccount: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

/** How many references one association may hold. */
export const MAX_REFERENCES = 1000;

const referenceEntity = entity<ReferenceRecord>({
  type: 'onrampReference',
  keyOf: (r) => bespokeKeys.reference(r, r.reference),
});

export type Registered = 'written' | 'capped' | 'taken';

/** Writes a new reference with its binding, counted against the cap. */
export async function putReference(record: ReferenceRecord): Promise<Registered> {
  const written = await transact([
    { put: { entity: referenceEntity as never, record, condition: absent } },
    {
      update: {
        key: bespokeKeys.referenceCount(record),
        changes: { add: { count: 1 } },
        condition: absentOrBelow('count', MAX_REFERENCES),
      },
    },
    {
      put: bindingOf({
        environment: record.environment,
        connectorId: record.connectorId,
        kind: 'REFERENCE',
        reference: record.reference,
        associationId: record.associationId,
        subjectId: record.reference,
        createdAt: record.createdAt,
      }),
    },
  ]);
  if (written.outcome === 'written') return 'written';
  return written.reasons[1]?.code === 'ConditionalCheckFailed' ? 'capped' : 'taken';
}

export const findReference = (tenant: Tenant, reference: string) =>
  getRecord<ReferenceRecord>(bespokeKeys.reference(tenant, reference), { consistent: true });

/** Every reference of the tenant (at most MAX_REFERENCES): one key condition on its partition. */
export const allReferences = (tenant: Tenant) =>
  readAllPages<ReferenceRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantScope(tenant), ':prefix': bespokeKeys.referencePrefix },
  });

/** A change of one reference as read (`from`): applied only if it still holds what was read. */
export const referenceChange = (
  from: ReferenceRecord,
  set: Partial<Pick<ReferenceRecord, 'isActive' | 'walletId'>>,
  now: Date,
): TransactionWrite => ({
  update: {
    key: bespokeKeys.reference(from, from.reference),
    changes: { set: { ...set, updatedAt: now.toISOString() } },
    condition: holds({ isActive: from.isActive, walletId: from.walletId }),
  },
});

/** Applies changes to references together: false when one of them changed in between. */
export async function changeReferences(changes: TransactionWrite[]): Promise<boolean> {
  return (await transact(changes)).outcome === 'written';
}
