// A customer the provider rejects is paid nothing more (docs/decisions/provider-onramp-receipts.md): the
// rejection deactivates every on-ramp reference of the customer (lib/customers/standing.ts applies the
// decision, then this), so receipts on them are held for platform operations (receipts.ts, which also holds a
// receipt for a rejected customer on a reference this has not reached yet). The tenant can activate one again
// only once the customer is VERIFIED (service.ts activateReferences).

import { logger } from '../log.ts';
import type { Tenant } from '../tenant.ts';
import { allReferences, changeReferences, findReference, referenceChange } from './repo.ts';

/** Rounds of a change another writer beat (a move, an activation) before giving up. */
const ATTEMPTS = 5;

/** Deactivates the customer's active references of the connector, each as it stands now. */
export async function deactivateCustomerReferences(
  tenant: Tenant,
  connectorId: string,
  customerId: string,
  now: Date,
): Promise<number> {
  const active = (await allReferences(tenant)).filter(
    (r) => r.connectorId === connectorId && r.customerId === customerId && r.isActive,
  );
  await Promise.all(
    active.map(async (first) => {
      let record = first;
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        if (await changeReferences([referenceChange(record, { isActive: false }, now)])) return;
        const current = await findReference(tenant, record.reference);
        if (!current?.isActive) return;
        record = current;
      }
      // Receipts on it are held all the same (receipts.ts reads the customer); the provider's retry of
      // the decision deactivates it.
      throw new Error(`Reference ${record.reference} kept changing; not deactivated`);
    }),
  );
  if (active.length)
    logger.info('References of a rejected customer deactivated', { connectorId, count: active.length });
  return active.length;
}
