// Atomic multi-transfers between the caller's own wallets: up to MAX_PAYMENT_LEGS transfers of one asset
// in one ledger transaction, each wallet checked once (named by the first transfer that mentions it).
import BigNumber from 'bignumber.js';
import { type FieldError, unprocessable } from '../http/problem.ts';
import { MAX_PAYMENT_LEGS, MAX_PAYMENT_WALLETS } from '../ledger/payment-limits.ts';
import type { Tenant } from '../tenant.ts';
import type { WalletRecord } from '../wallets/lookups.ts';
import type { Draft } from './hand-off.ts';
import { accept } from './idempotency.ts';
import type { LegRecord } from './repo.ts';
import type { P2pOwnMulti } from './schema.ts';
import { decimal, onRecord, registryAsset, usableWallets } from './shared-checks.ts';
import { assertSpendable } from './spendable.ts';

async function multiDraft(tenant: Tenant, body: P2pOwnMulti): Promise<Draft> {
  const { transfers } = body;
  if (transfers.length > MAX_PAYMENT_LEGS)
    throw unprocessable('Too many transfers for one ledger transaction.', [
      { field: 'transfers', message: `must hold at most ${MAX_PAYMENT_LEGS} transfers` },
    ]);
  const assetCode = transfers[0]?.sendingAssetCode ?? '';
  const mixed: FieldError[] = transfers.flatMap((leg, i) => [
    ...(leg.sendingAssetCode !== assetCode
      ? [{ field: `transfers.${i}.sendingAssetCode`, message: `must be ${assetCode}, as in every transfer` }]
      : []),
    ...(leg.walletId === leg.destinationWalletId
      ? [{ field: `transfers.${i}.destinationWalletId`, message: 'must differ from walletId' }]
      : []),
  ]);
  if (mixed.length) throw unprocessable('The transfers cannot be made as one payment.', mixed);
  // Each wallet once, named by the first transfer that mentions it.
  const fieldOf = new Map<string, string>();
  transfers.forEach((leg, i) => {
    if (!fieldOf.has(leg.walletId)) fieldOf.set(leg.walletId, `transfers.${i}.walletId`);
    if (!fieldOf.has(leg.destinationWalletId))
      fieldOf.set(leg.destinationWalletId, `transfers.${i}.destinationWalletId`);
  });
  if (fieldOf.size > MAX_PAYMENT_WALLETS)
    throw unprocessable('Too many wallets for one ledger transaction.', [
      { field: 'transfers', message: `must involve at most ${MAX_PAYMENT_WALLETS} distinct wallets` },
    ]);
  const wallets = new Map(
    (await usableWallets(tenant, [...fieldOf])).map((wallet): [string, WalletRecord] => [
      wallet.walletId,
      wallet,
    ]),
  );
  const sending = await registryAsset(tenant, assetCode, 'transfers.0.sendingAssetCode');
  const legs: LegRecord[] = transfers.map((leg, legIndex) => {
    const from = wallets.get(leg.walletId) as WalletRecord;
    const to = wallets.get(leg.destinationWalletId) as WalletRecord;
    return {
      legIndex,
      walletId: from.walletId,
      walletPublicKey: from.publicKey,
      destinationWalletId: to.walletId,
      destinationStellarAddress: to.publicKey,
      sendingAsset: onRecord(sending),
      amount: decimal(leg.amount),
    };
  });
  await assertSpendable(
    legs.map((leg) => ({
      from: wallets.get(leg.walletId) as WalletRecord,
      to: wallets.get(leg.destinationWalletId) as WalletRecord,
      asset: leg.sendingAsset,
      amount: leg.amount,
      field: `transfers.${leg.legIndex}.amount`,
    })),
  );
  const total = legs.reduce((sum, leg) => sum.plus(leg.amount), new BigNumber(0)).toFixed();
  const sources = new Set(legs.map((leg) => leg.walletPublicKey));
  const single = sources.size === 1 ? legs[0] : undefined;
  return {
    transactionType: 'p2p_multi',
    sendAmount: total,
    originalSendAmount: total,
    receiveAmount: null,
    exchangeRate: null,
    sendingAsset: onRecord(sending),
    receivingAsset: onRecord(sending),
    slippage: null,
    minReceiveAmount: null,
    walletId: single?.walletId ?? null,
    walletPublicKey: single?.walletPublicKey ?? null,
    destinationWalletId: null,
    destinationStellarAddress: null,
    beneficiaryId: null,
    beneficiaryFirstName: null,
    beneficiaryLastName: null,
    paymentDestinationId: null,
    fromRef: body.fromRef ?? null,
    toRef: body.toRef ?? null,
    memo: null,
    notify: null,
    legs,
    walletIds: [...fieldOf.keys()],
  };
}

export const payP2pOwnMulti = (tenant: Tenant, body: P2pOwnMulti, now: Date, requestId?: string) =>
  accept(tenant, 'payP2pOwnMulti', body, now, () => multiDraft(tenant, body), requestId);
