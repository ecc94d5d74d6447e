// On-ramp references (docs/decisions/bespoke-customers.md): what a verified customer of a BESPOKE ON_RAMP
// connector pays the provider against, bound to one of the caller's own Verified wallets. The provider
// issues the reference (for our routeId); the connector's settlement account pays each receipt on it
// into the bound wallet (receipts.ts). A reference is only ever bound to the caller's own wallets: every
// wallet named is read inside the caller's tenant (another tenant's is not found), and one it holds for a
// third party (ownAccount false) is refused.
import { randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import { bespokeConnector, customerStanding, verifiedCustomer } from '../customers/standing.ts';
import { notFound, Problem, unprocessable } from '../http/problem.ts';
import { settlementOf } from '../payments/ramps/checks.ts';
import { usableWallet } from '../payments/shared-checks.ts';
import { askProvider } from '../providers/service.ts';
import type { Tenant } from '../tenant.ts';
import {
  allReferences,
  changeReferences,
  findReference,
  MAX_REFERENCES,
  putReference,
  type ReferenceRecord,
  referenceChange,
} from './repo.ts';
import { toReferenceResource } from './responses.ts';
import type { Activation, CreateReference, ListReferencesQuery } from './schema.ts';

/**
 * The caller's own Verified wallet, of the asset the connector pays out (404, 403, 422 naming `field`):
 * a third party's wallet in the caller's tenant (ownAccount false), Verified or not, is not one of its own.
 */
export async function payoutWallet(tenant: Tenant, walletId: string, assetCode: string, field = 'walletId') {
  const wallet = await usableWallet(tenant, walletId, field);
  if (!wallet.ownAccount)
    throw unprocessable('A reference is bound only to one of the caller’s own wallets.', [
      { field, message: 'is a third party’s wallet (ownAccount false), not one of your own' },
    ]);
  if (wallet.assetCode !== assetCode)
    throw unprocessable('The wallet cannot receive what the connector pays out.', [
      { field, message: `is a ${wallet.assetCode} wallet; the connector pays ${assetCode}` },
    ]);
  return wallet;
}

export async function createReference(tenant: Tenant, body: CreateReference, now: Date) {
  const connector = await bespokeConnector(tenant.environment, body.connectorId);
  if (connector.direction !== 'ON_RAMP')
    throw unprocessable('References are for on-ramp connectors.', [
      { field: 'connectorId', message: `${connector.id} is an ${connector.direction} connector` },
    ]);
  const wallet = await payoutWallet(tenant, body.walletId, connector.destinationAsset);
  const customer = await verifiedCustomer(tenant, connector.id, body.customerId);
  const settlement = await settlementOf(tenant, connector);
  const routeId = randomUUID();
  const { reference } = await askProvider(tenant.environment, connector.id, (provider) =>
    provider.issueReference({
      routeId,
      connectorId: connector.id,
      customerReference: customer.providerReference,
    }),
  );
  const at = now.toISOString();
  const record: ReferenceRecord = {
    environment: tenant.environment,
    associationId: tenant.associationId,
    reference,
    routeId,
    customerId: customer.customerId,
    connectorId: connector.id,
    walletId: wallet.walletId,
    settlementAccount: settlement.publicKey,
    isActive: true,
    createdAt: at,
    updatedAt: at,
  };
  const written = await putReference(record);
  if (written === 'capped')
    throw new Problem(409, `An association holds at most ${MAX_REFERENCES} on-ramp references.`, {
      errors: [{ field: 'customerId', message: 'no more references can be registered' }],
    });
  // A provider that issued a reference it had issued before: never bound twice.
  if (written === 'taken') throw new Error(`Provider of ${connector.id} issued reference ${reference} again`);
  return toReferenceResource(record);
}

/** The caller's reference, or 404 (another tenant's reads as missing). */
export async function ownReference(tenant: Tenant, reference: string, field?: string) {
  const record = await findReference(tenant, reference);
  if (!record)
    throw notFound(
      `No on-ramp reference ${reference}.`,
      field ? [{ field, message: 'is not a reference of yours' }] : undefined,
    );
  return record;
}

/** Filters combined; oldest first; `count` is every match, the page is pageSize of them. */
export async function listReferences(tenant: Tenant, query: ListReferencesQuery) {
  const { pageNumber, pageSize, isActive, ...equals } = query;
  const matches = (await allReferences(tenant))
    .filter(
      (r) =>
        (isActive === undefined || String(r.isActive) === isActive) &&
        Object.entries(equals).every(
          ([member, value]) => value === undefined || r[member as keyof ReferenceRecord] === value,
        ),
    )
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.reference.localeCompare(b.reference));
  const start = (pageNumber - 1) * pageSize;
  return {
    data: matches.slice(start, start + pageSize).map(toReferenceResource),
    pageNumber,
    pageSize,
    count: matches.length,
  };
}

/** Sandbox: a customer pays into the caller's reference; the provider's receipt notification follows. */
export async function payIntoReferenceForTest(
  tenant: Tenant,
  reference: string,
  payment: { amount: number; currency: string },
) {
  if (tenant.environment !== 'sandbox') throw notFound('No such route.');
  const record = await ownReference(tenant, reference);
  const amount = new BigNumber(payment.amount).toFixed();
  const receipt = await askProvider(tenant.environment, record.connectorId, async (provider) =>
    provider.receiveForTest?.(reference, { amount, currency: payment.currency }),
  );
  if (!receipt) throw notFound(`The provider knows no reference ${reference}.`);
  return {
    reference,
    receiptId: receipt.receiptId,
    amount: payment.amount,
    currency: payment.currency,
    message: record.isActive
      ? 'Paid in at the provider; its receipt notification pays the wallet within moments.'
      : 'Paid in at the provider; the reference is inactive, so the receipt will be held.',
  };
}

const changedMeanwhile = () =>
  new Problem(
    409,
    'A reference changed while this request was applied; nothing was changed. Read it and retry.',
  );

/**
 * Activates and deactivates the caller's references, all or none: one not the caller's is a 404 naming
 * it, one activated whose customer is not VERIFIED a 422 naming it, and neither changes anything.
 * Receipts on an inactive reference are held (receipts.ts).
 */
export async function activateReferences(tenant: Tenant, body: Activation, now: Date) {
  const records = await Promise.all(
    body.references.map((item, i) => ownReference(tenant, item.reference, `references.${i}.reference`)),
  );
  const changes = records.flatMap((record, i) => {
    const isActive = body.references[i]?.isActive as boolean;
    return record.isActive === isActive
      ? []
      : [{ record, write: referenceChange(record, { isActive }, now) }];
  });
  // A reference pays its customer's receipts: activated again only while the customer is verified (a
  // rejection deactivated it, deactivation.ts).
  const unverified = await Promise.all(
    records.map(async (record, i) => {
      if (record.isActive || !body.references[i]?.isActive) return [];
      const standing = await customerStanding(tenant, record.connectorId, record.customerId);
      return standing === 'VERIFIED'
        ? []
        : [
            {
              field: `references.${i}.reference`,
              message: `its customer ${record.customerId} is ${standing ?? 'not registered'}, not VERIFIED`,
            },
          ];
    }),
  );
  if (unverified.flat().length)
    throw unprocessable('A reference is activated only while its customer is verified.', unverified.flat());
  if (changes.length && !(await changeReferences(changes.map((c) => c.write)))) throw changedMeanwhile();
  return {
    data: records.map((record, i) =>
      toReferenceResource({ ...record, isActive: body.references[i]?.isActive as boolean }),
    ),
  };
}

/** Moves the caller's reference to another of its own Verified wallets (of the asset paid out). */
export async function moveReference(tenant: Tenant, reference: string, walletId: string, now: Date) {
  const record = await ownReference(tenant, reference);
  const connector = await bespokeConnector(tenant.environment, record.connectorId);
  const wallet = await payoutWallet(tenant, walletId, connector.destinationAsset);
  if (
    wallet.walletId !== record.walletId &&
    !(await changeReferences([referenceChange(record, { walletId }, now)]))
  )
    throw changedMeanwhile();
  return toReferenceResource({ ...record, walletId: wallet.walletId });
}
