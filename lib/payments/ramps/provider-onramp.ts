// Provider on-ramps (docs/decisions/provider-onramp-receipts.md): a customer of a bespoke connector paid the
// provider against an on-ramp reference, and the provider reported the receipt. The caller never submits
// these: the receipt makes a transaction record of type `provider_onramp`, written `initiated` (its insert
// asks for the ledger work through the outbox, as every payment's), which the connector's settlement account
// pays into the reference's wallet (execution.ts), once: the record's id and its ledger intent are both
// derived from the provider's receipt id, so a receipt reported any number of times is one record and one
// ledger payment.
import BigNumber from 'bignumber.js';
import { findRegistryAsset } from '../../assets/service.ts';
import { connectorOrNotFound } from '../../connectors/service.ts';
import type { TransactionWrite } from '../../db/items.ts';
import { Problem } from '../../http/problem.ts';
import { nameBasedId } from '../../ids.ts';
import { purposeOf } from '../../ledger/purpose.ts';
import type { Receipt } from '../../providers/contract.ts';
import { priceReceipt } from '../../quotes/service.ts';
import type { Tenant } from '../../tenant.ts';
import { findWalletRecord } from '../../wallets/lookups.ts';
import { putTransactionWith, type TransactionRecord } from '../repo.ts';
import { onRecord } from '../shared-checks.ts';
import { connectorLimits, limitErrors, type WindowUse } from './limits.ts';
import { reserveRampUse } from './usage.ts';

/** This service's namespace for receipt record ids (fixed forever). */
const NAMESPACE = '9a4e2c7b-1d3f-4b6a-8e5c-0f2d4a6b8c1e';

/** The record of a receipt: one per connector and receipt id, whoever's reference it arrived on. */
export const receiptRecordIdOf = (tenant: Tenant, connectorId: string, receiptId: string) =>
  nameBasedId(NAMESPACE, `${tenant.environment}/${connectorId}/${receiptId}`);

/** What a receipt is paid to: the reference as it stood when the receipt arrived. */
export interface ReceiptTarget {
  reference: string;
  customerId: string;
  walletId: string;
  settlementAccount: string;
}

/**
 * The record a receipt makes, priced (the connector's fee out of the amount, the rest at the rate), or
 * why it cannot be paid and is held instead.
 */
export async function providerOnrampRecord(
  tenant: Tenant,
  connectorId: string,
  receipt: Receipt,
  target: ReceiptTarget,
  now: Date,
): Promise<TransactionRecord | { held: string }> {
  const connector = await connectorOrNotFound(tenant.environment, connectorId);
  if (receipt.currency !== connector.acceptedAsset)
    return { held: `paid in ${receipt.currency}; ${connectorId} takes ${connector.acceptedAsset}` };
  const [priced, asset, wallet] = await Promise.all([
    priceReceipt(tenant.environment, connector, new BigNumber(receipt.amount)),
    findRegistryAsset(tenant.environment, connector.destinationAsset),
    findWalletRecord(tenant, target.walletId),
  ]);
  if (!priced || !asset || !wallet)
    return { held: `no ${connector.destinationAsset} rate, asset or wallet now` };
  // A reference is bound to its tenant's own wallets only; one bound before that was enforced pays none.
  if (!wallet.ownAccount)
    return { held: `wallet ${wallet.walletId} is a third party’s, not the tenant’s own` };
  if (!priced.receiveAmount.gt(0))
    return { held: `${receipt.amount} does not cover the fee of ${priced.fee}` };
  const transactionRecordId = receiptRecordIdOf(tenant, connectorId, receipt.receiptId);
  const at = now.toISOString();
  return {
    transactionRecordId,
    environment: tenant.environment,
    associationId: tenant.associationId,
    status: 'initiated',
    transactionType: 'provider_onramp',
    operation: 'providerOnrampReceipt',
    requestFingerprint: purposeOf({ connectorId, ...receipt }),
    idempotencyKey: receipt.receiptId,
    // Keyed by the receipt: one ledger payment per receipt id (lib/ledger/submit.ts).
    intentId: `provider-receipt:${tenant.environment}:${connectorId}:${receipt.receiptId}`,
    sendAmount: receipt.amount,
    originalSendAmount: receipt.amount,
    receiveAmount: priced.receiveAmount.toFixed(),
    exchangeRate: priced.rate.toFixed(),
    fee: priced.fee.toFixed(),
    sendingAsset: { code: receipt.currency, issuer: null },
    receivingAsset: onRecord(asset),
    slippage: null,
    minReceiveAmount: null,
    walletId: wallet.walletId,
    walletPublicKey: target.settlementAccount,
    destinationWalletId: wallet.walletId,
    destinationStellarAddress: wallet.publicKey,
    beneficiaryId: null,
    beneficiaryFirstName: null,
    beneficiaryLastName: null,
    paymentDestinationId: null,
    fromRef: null,
    toRef: target.reference,
    memo: null,
    notify: null,
    legs: null,
    walletIds: [wallet.walletId],
    stellarTxHash: null,
    ramp: {
      connectorId,
      connectorName: connector.name,
      method: connector.method,
      destinationCountryIso: connector.region.iso,
      quoteId: null,
      rate: priced.rate.toFixed(),
      fiatAmount: receipt.amount,
      fiatCurrency: receipt.currency,
      beneficiary: { customerId: target.customerId },
      destination: { reference: target.reference },
    },
    receipt: {
      receiptId: receipt.receiptId,
      reference: target.reference,
      customerId: target.customerId,
      netAmount: priced.receiveAmount.toFixed(),
      totalFees: priced.fee.toFixed(),
      feeCurrency: receipt.currency,
      assetCode: asset.assetCode,
    },
    externalReference: receipt.receiptId,
    providerStatus: 'completed',
    refundTxHash: null,
    errorCode: null,
    failureReason: null,
    createdAt: at,
    updatedAt: at,
    completedAt: null,
  };
}

/**
 * Reserves the receipt's use of its connector's limits (usage.ts), as an on-ramp's: its amount in
 * the connector's accepted asset against the connector's TRANSACTION minimum and maximum and the
 * association's uses in each window, or says which limits hold it. Platform operations paying a held
 * receipt (`limits: 'reviewed'`) reserve without the check: they decided it, and it still counts.
 * Copies of one receipt share its use; a receipt that ends up not paid gives it back (releaseRampUse).
 */
export async function reserveReceiptUse(
  tenant: Tenant,
  record: TransactionRecord,
  now: Date,
  limits: 'checked' | 'reviewed' = 'checked',
): Promise<'reserved' | { held: string }> {
  const connector = await connectorOrNotFound(tenant.environment, record.ramp?.connectorId as string);
  const amount = new BigNumber(record.sendAmount);
  const errorsOf = (used: (durationSeconds: number) => WindowUse) =>
    limits === 'reviewed'
      ? []
      : limitErrors(connectorLimits(connector.limits), amount, connector.acceptedAsset, used);
  try {
    await reserveRampUse(
      tenant,
      connector.id,
      record.transactionRecordId,
      record.sendAmount,
      now,
      errorsOf,
      'share',
    );
    return 'reserved';
  } catch (error) {
    if (!(error instanceof Problem) || error.status !== 422) throw error;
    return { held: `the amount ${(error.errors ?? []).map((e) => e.message).join('; ')}` };
  }
}

/** Writes the receipt's record with `alongside` (the receipt taken), both or neither. */
export async function recordReceipt(
  record: TransactionRecord,
  alongside: TransactionWrite,
): Promise<boolean> {
  return putTransactionWith(record, alongside);
}
