// What another domain (payments) reads of a wallet: its record, custody included, for the worker that
// signs with it. A module of its own, beside the service, so a function that only checks wallets does
// not bundle key generation. Strongly consistent: the API may have returned the wallet a moment ago,
// and a wallet the API has returned must be found.
import type { Tenant } from '../tenant.ts';
import { findWallet, findWallets, type WalletRecord } from './repo.ts';

export type { WalletRecord };

export const findWalletRecord = (tenant: Tenant, walletId: string): Promise<WalletRecord | undefined> =>
  findWallet(tenant, walletId, { consistent: true });

/** Wallets by id, strongly consistent, in one read (the wallets a payment is accepted between): missing ones left out. */
export const findWalletRecordsNow = (tenant: Tenant, walletIds: string[]): Promise<WalletRecord[]> =>
  findWallets(tenant, walletIds, { consistent: true });

/** Wallets by id, for naming them (statement lines): missing ones are left out. */
export const findWalletRecords = (tenant: Tenant, walletIds: string[]): Promise<WalletRecord[]> =>
  findWallets(tenant, walletIds);
