// Sandbox test helpers (Stripe-style): settle a KYC review, and pay a wallet from the asset's issuer.
import { randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import { findRegistryAsset } from '../assets/service.ts';
import { gatewayTimeout, notFound, Problem, unprocessable } from '../http/problem.ts';
import type { Tenant } from '../http/types.ts';
import { pay } from '../ledger/operations.ts';
import { platformAccount } from '../ledger/platform-accounts.ts';
import { findWallet } from './repo.ts';

/** Test helpers do not exist for production applications: they answer as unknown routes do. */
export function assertSandbox(tenant: Tenant): void {
  if (tenant.environment !== 'sandbox') throw notFound('No such route.');
}

export async function fundWallet(
  tenant: Tenant,
  walletId: string,
  input: { assetCode: string; amount: number },
) {
  assertSandbox(tenant);
  const wallet = await findWallet(tenant, walletId);
  if (!wallet) throw notFound(`No wallet ${walletId}.`);
  if (wallet.activationStatus !== 'active') {
    throw new Problem(
      409,
      `The wallet's ledger account is ${wallet.activationStatus}, not active; try again shortly.`,
    );
  }
  const amount = new BigNumber(input.amount);
  if (amount.decimalPlaces() !== null && (amount.decimalPlaces() ?? 0) > 7) {
    throw unprocessable('The amount has too many decimals.', [
      { field: 'amount', message: 'at most 7 decimal places' },
    ]);
  }
  const asset = await findRegistryAsset(tenant.environment, input.assetCode);
  if (!asset) {
    throw unprocessable('Unknown asset.', [
      { field: 'assetCode', message: `${input.assetCode} is not in the asset registry` },
    ]);
  }
  const source = await platformAccount(
    tenant.environment,
    asset.assetIssuer ? `issuer:${asset.assetCode}` : 'funding',
  );
  const outcome = await pay({
    environment: tenant.environment,
    intentId: `sandbox-fund:${randomUUID()}`,
    from: source,
    to: wallet.publicKey,
    asset: asset.assetIssuer ? { code: asset.assetCode, issuer: asset.assetIssuer } : 'native',
    amount: amount.toFixed(),
  });
  if (outcome.status === 'failed') {
    throw unprocessable(outcome.failureReason, [{ field: 'assetCode', message: outcome.errorCode }]);
  }
  if (outcome.status !== 'succeeded') throw gatewayTimeout('The ledger did not confirm the payment in time.');
  return { walletId, assetCode: asset.assetCode, amount: amount.toNumber(), stellarTxHash: outcome.hash };
}
