// Wallets: tenant-owned items under the tenant scope (lib/db/keys.ts walletKeys).
import { holds } from '../db/conditions.ts';
import { entity, recordOf } from '../db/entity.ts';
import { createIfAbsent, getRecord, getRecords, updateIf } from '../db/items.ts';
import { type ListIndex, pendingKeys, tenantOf, tenantScope, walletKeys } from '../db/keys.ts';
import { listPartition, type PageRequest, positionOn, queryPage, underPrefix } from '../db/paginate.ts';
import { countInWindow } from '../db/window-count.ts';
import type { SealedSecret } from '../ledger/custody.ts';
import type { Tenant } from '../tenant.ts';
import type { WalletMetadata } from './schema.ts';

export type WalletStatus = 'Pending' | 'Verified' | 'Rejected';
/** Where the wallet's ledger account is: being created, open, or refused by the ledger. */
export type ActivationStatus = 'pending' | 'active' | 'failed';

export interface WalletRecord {
  walletId: string;
  environment: Tenant['environment'];
  associationId: string;
  walletName: string;
  assetCode: string;
  assetIssuer: string | null;
  ownAccount: boolean;
  status: WalletStatus;
  networkName: string;
  publicKey: string;
  /** The ledger secret, sealed under the key-encryption key; never leaves the service. */
  sealedSecret: SealedSecret;
  metadata: WalletMetadata | null;
  activationStatus: ActivationStatus;
  activationErrorCode?: string;
  activationFailureReason?: string;
  /**
   * Openings that failed because the platform could not pay (lib/wallets/activation.ts): each retry is a
   * ledger intent of its own, `wallet-activation:<walletId>:<n>`, after the last one's failure is final.
   */
  activationRetries?: number;
  createdAt: string;
  updatedAt: string;
}

/** A wallet: tenant-owned, found by the platform by id alone (KYC review). */
export const walletEntity = entity<WalletRecord>({
  type: 'wallet',
  keyOf: (record) => walletKeys.wallet(tenantOf(record), record.walletId),
  indexKeysOf: (record) => ({
    ...walletKeys.byWalletId(record.walletId),
    ...walletKeys.listKeys(tenantOf(record), record),
    // Until its activation is recorded (recordActivation), the reconciler finds it if it waits too long.
    ...(record.activationStatus === 'pending'
      ? pendingKeys.of(record.environment, 'wallet', record.createdAt)
      : {}),
  }),
});

/**
 * Counts one wallet creation in the association's window: null when counted, else the seconds until the
 * window ends (`limit` were created in it already).
 */
export const countWalletCreation = (tenant: Tenant, limit: number, windowSeconds: number, now: Date) =>
  countInWindow((start) => walletKeys.creationWindow(tenant, start), limit, windowSeconds, now);

/** Writes a new wallet (ids are random: an existing item is a bug, not a replay). */
export async function putWallet(record: WalletRecord): Promise<void> {
  const written = await createIfAbsent(walletEntity, record);
  if (written.outcome !== 'written') throw new Error(`Wallet ${record.walletId} already exists`);
}

/** The tenant's wallets among `walletIds` (missing ones left out), eventually consistent. */
export const findWallets = (tenant: Tenant, walletIds: string[], options: { consistent?: boolean } = {}) =>
  getRecords<WalletRecord>(
    walletIds.map((walletId) => walletKeys.wallet(tenant, walletId)),
    options,
  );

export async function findWallet(
  tenant: Tenant,
  walletId: string,
  options: { consistent?: boolean } = {},
): Promise<WalletRecord | undefined> {
  return getRecord<WalletRecord>(walletKeys.wallet(tenant, walletId), options);
}

/** By id; a filter reads its list index (lib/db/keys.ts), both filters the index that keys both. */
export function listWalletPage(
  tenant: Tenant,
  filters: { assetCode?: string | undefined; networkName?: string | undefined },
  page: Omit<PageRequest, 'binding'>,
) {
  const { assetCode, networkName } = filters;
  const [index, pk] = ((): [ListIndex | undefined, string] => {
    if (assetCode && networkName)
      return ['list3', walletKeys.byAssetAndNetwork(tenant, assetCode, networkName)];
    if (assetCode) return ['list1', walletKeys.byAsset(tenant, assetCode)];
    if (networkName) return ['list2', walletKeys.byNetwork(tenant, networkName)];
    return [undefined, tenantScope(tenant)];
  })();
  return queryPage(
    index
      ? {
          ...listPartition(index, pk),
          recordKeyOf: (entry) => ({ pk: tenantScope(tenant), sk: String(entry.sk) }),
        }
      : underPrefix(pk, walletKeys.walletPrefix),
    { ...page, binding: { scope: tenantScope(tenant), query: `wallets?${JSON.stringify(filters)}` } },
    positionOn(index),
    (item) => recordOf<WalletRecord>(item),
  );
}

/** Moves a wallet's KYC status out of `from`: the wallet now, or as it is when it was not in `from`. */
export const transitionStatus = (
  tenant: Tenant,
  walletId: string,
  from: WalletStatus,
  to: WalletStatus,
  now: Date,
) =>
  updateIf<WalletRecord>(
    walletKeys.wallet(tenant, walletId),
    { set: { status: to, updatedAt: now.toISOString() } },
    holds({ status: from }),
  );

export type ActivationOutcome =
  | { status: 'active' }
  | { status: 'failed'; errorCode: string; failureReason: string };

/** Records where activation ended; only a pending activation moves (a replayed message changes nothing). */
export async function recordActivation(
  tenant: Tenant,
  walletId: string,
  outcome: ActivationOutcome,
  now: Date,
): Promise<void> {
  const set =
    outcome.status === 'active'
      ? { activationStatus: 'active' }
      : {
          activationStatus: 'failed',
          activationErrorCode: outcome.errorCode,
          activationFailureReason: outcome.failureReason,
        };
  await updateIf(
    walletKeys.wallet(tenant, walletId),
    { set: { ...set, updatedAt: now.toISOString() }, remove: pendingKeys.attributes },
    holds({ activationStatus: 'pending' }),
  );
}

/**
 * Moves a pending wallet's opening to its next intent (the last one failed on the platform's shortfall):
 * only from the retry the caller read, so two deliveries that saw the same failure move it once.
 */
export async function nextActivationRetry(wallet: WalletRecord, now: Date): Promise<void> {
  const retries = wallet.activationRetries ?? 0;
  await updateIf(
    walletKeys.wallet(tenantOf(wallet), wallet.walletId),
    { set: { activationRetries: retries + 1, updatedAt: now.toISOString() } },
    {
      expression: '#cS = :cS AND (attribute_not_exists(#cR) OR #cR = :cR)',
      names: { '#cS': 'activationStatus', '#cR': 'activationRetries' },
      values: { ':cS': 'pending', ':cR': retries },
    },
  );
}

export { tenantOf };
