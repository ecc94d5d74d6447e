// The wallets a payment signs with, as the ledger-submitter reads them: their keys and whether their
// ledger account is open. What it uses of a wallet recorded active never changes: activation moves only
// out of `pending` (repo.ts recordActivation), a wallet is never deleted, and its keys are written once,
// with it. So an active wallet is held for the execution environment, with no bound on its age, and a
// warm submitter paying between wallets it has seen reads none of them; a pending or failed one, or one
// not found, is read again each time (strongly consistent, like every first read), so an activation
// recorded a moment ago is seen at once. Held by table and tenant scope: a wallet is only ever found
// under the tenant that owns it, held or read.
import { tableName } from '../db/client.ts';
import { tenantScope } from '../db/keys.ts';
import type { Tenant } from '../tenant.ts';
import { findWallets, type WalletRecord } from './repo.ts';

/** What a payment's execution uses of a wallet. */
export type SigningWallet = Pick<
  WalletRecord,
  'walletId' | 'publicKey' | 'sealedSecret' | 'activationStatus'
>;

/** Wallets held at most, the oldest read dropped first (each a few hundred bytes). */
const MAX_HELD = 10_000;
const held = new Map<string, SigningWallet>();

const heldKey = (tenant: Tenant, walletId: string) => `${tableName()}|${tenantScope(tenant)}|${walletId}`;

/** Wallets by id, those held without a read and the rest in one strongly consistent read: missing ones left out. */
export async function findSigningWallets(tenant: Tenant, walletIds: string[]): Promise<SigningWallet[]> {
  const found: SigningWallet[] = [];
  const unheld: string[] = [];
  for (const walletId of new Set(walletIds)) {
    const wallet = held.get(heldKey(tenant, walletId));
    if (wallet) found.push(wallet);
    else unheld.push(walletId);
  }
  if (unheld.length === 0) return found;
  for (const { walletId, publicKey, sealedSecret, activationStatus } of await findWallets(tenant, unheld, {
    consistent: true,
  })) {
    const wallet = { walletId, publicKey, sealedSecret, activationStatus };
    found.push(wallet);
    if (activationStatus !== 'active') continue;
    if (held.size >= MAX_HELD) held.delete(held.keys().next().value as string);
    held.set(heldKey(tenant, walletId), wallet);
  }
  return found;
}
