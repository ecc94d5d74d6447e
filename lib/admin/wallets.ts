// KYC review by platform operations: the decision that ends a third-party wallet's Pending status.
import { findByPlatformId } from '../db/platform-index.ts';
import { tenantOf, type WalletRecord } from '../wallets/repo.ts';
import { decideKyc } from '../wallets/service.ts';
import { AdminRefusal } from './refusal.ts';

export async function reviewWallet(walletId: string, decision: 'Verified' | 'Rejected', now = new Date()) {
  const wallet = await findByPlatformId<WalletRecord>('WALLET', walletId);
  if (!wallet) throw new AdminRefusal(`No wallet ${walletId}`);
  const reviewed = await decideKyc(tenantOf(wallet), walletId, decision, now);
  return { walletId, status: reviewed.status };
}
