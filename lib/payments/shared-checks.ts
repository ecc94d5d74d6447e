// The checks every payment kind shares, and the record's spelling of money: the caller's wallet, a
// registry asset, and whom a notice may go to.
import BigNumber from 'bignumber.js';
import type { Asset } from '../assets/schema.ts';
import { findRegistryAsset } from '../assets/service.ts';
import type { Payee } from '../beneficiaries/payees.ts';
import { type FieldError, forbidden, notFound, Problem, unprocessable } from '../http/problem.ts';
import type { Tenant } from '../tenant.ts';
import { findWalletRecord, findWalletRecordsNow, type WalletRecord } from '../wallets/lookups.ts';
import type { Draft } from './hand-off.ts';
import type { AssetOnRecord } from './repo.ts';
import type { P2pBeneficiary } from './schema.ts';

/** An amount as the record writes it: a decimal string, exactly as sent. */
export const decimal = (amount: number) => new BigNumber(String(amount)).toFixed();

export const onRecord = (asset: Asset): AssetOnRecord => ({
  code: asset.assetCode,
  issuer: asset.assetIssuer,
});

/** A wallet of the caller that may take part in a payment: 404 unknown, 403 not Verified, 409 unopenable. */
function checkedWallet(wallet: WalletRecord | undefined, walletId: string, field: string): WalletRecord {
  if (!wallet) throw notFound(`No wallet ${walletId}.`, [{ field, message: 'is not a wallet of yours' }]);
  if (wallet.status !== 'Verified') {
    throw forbidden(`Wallet ${walletId} is ${wallet.status}: only Verified wallets can transact.`, [
      { field, message: `is ${wallet.status}, not Verified` },
    ]);
  }
  // A wallet whose account is still being opened is fine: the payment waits for it. One that the ledger
  // refused to open never will be.
  if (wallet.activationStatus === 'failed') {
    throw new Problem(409, `Wallet ${walletId}'s ledger account could not be opened; it cannot transact.`, {
      errors: [{ field, message: 'has no ledger account' }],
    });
  }
  return wallet;
}

/** One wallet of the caller, read on its own (an on-ramp reference's, an off-ramp's) and checked. */
export const usableWallet = async (tenant: Tenant, walletId: string, field: string): Promise<WalletRecord> =>
  checkedWallet(await findWalletRecord(tenant, walletId), walletId, field);

/**
 * Several of the caller's wallets, `[walletId, field]` each, checked as usableWallet checks one: read in
 * one strongly consistent call (a payment between two wallets asked the table twice), the first
 * refusal in the order given.
 */
export async function usableWallets(tenant: Tenant, wanted: [string, string][]): Promise<WalletRecord[]> {
  const ids = [...new Set(wanted.map(([walletId]) => walletId))];
  const found = new Map((await findWalletRecordsNow(tenant, ids)).map((w) => [w.walletId, w]));
  return wanted.map(([walletId, field]) => checkedWallet(found.get(walletId), walletId, field));
}

export async function registryAsset(tenant: Tenant, assetCode: string, field: string): Promise<Asset> {
  const asset = await findRegistryAsset(tenant.environment, assetCode);
  if (!asset)
    throw unprocessable('Unknown asset.', [{ field, message: `${assetCode} is not in the asset registry` }]);
  return asset;
}

export function notifyTarget(
  payee: Pick<Payee, 'email' | 'mobile'>,
  body: Pick<P2pBeneficiary, 'notifyEmail' | 'notifyWhatsApp'>,
): Draft['notify'] {
  const errors: FieldError[] = [];
  if (body.notifyEmail && body.notifyWhatsApp) {
    throw unprocessable('Choose one way to notify the beneficiary.', [
      { field: 'notifyEmail', message: 'cannot be true together with notifyWhatsApp' },
      { field: 'notifyWhatsApp', message: 'cannot be true together with notifyEmail' },
    ]);
  }
  if (body.notifyEmail && !payee.email)
    errors.push({ field: 'notifyEmail', message: 'the beneficiary has no registered email' });
  if (body.notifyWhatsApp && !payee.mobile)
    errors.push({ field: 'notifyWhatsApp', message: 'the beneficiary has no registered mobile number' });
  if (errors.length) throw unprocessable('The beneficiary cannot be notified that way.', errors);
  if (body.notifyEmail && payee.email) return { channel: 'email', to: payee.email };
  if (body.notifyWhatsApp && payee.mobile) return { channel: 'whatsapp', to: payee.mobile };
  return null;
}
