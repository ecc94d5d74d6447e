// Payment acceptance (spec §4.7): check the submission against the caller's wallets, beneficiaries and
// the asset registry, then write its transaction record, `initiated`, with one conditional put. Nothing
// else happens on the request path: the record's insert asks for the ledger work (lib/outbox.ts), so no
// payment can be accepted and never executed, or executed without its record.
//
// Idempotency (Stripe's rules): the record id is derived from (environment, association, transactionId),
// so a replay finds the first record by key. The same route and request → 202 with that record,
// isIdempotent true, nothing written; anything else under the same transactionId → 409. Concurrent
// duplicates race on the one conditional put: one writes, the others read what it wrote.
import BigNumber from 'bignumber.js';
import type { Asset } from '../assets/schema.ts';
import { findRegistryAsset } from '../assets/service.ts';
import { findPayee, type Payee } from '../beneficiaries/payees.ts';
import { config } from '../config.ts';
import {
  type FieldError,
  forbidden,
  notFound,
  Problem,
  serviceUnavailable,
  unprocessable,
} from '../http/problem.ts';
import { leastReceived } from '../ledger/amounts.ts';
import { LedgerUnavailableError } from '../ledger/errors.ts';
import { MAX_PAYMENT_LEGS, MAX_PAYMENT_WALLETS } from '../ledger/payment-limits.ts';
import { purposeOf } from '../ledger/purpose.ts';
import { strictSendPaths } from '../ledger/reads.ts';
import { logger } from '../log.ts';
import * as metrics from '../metrics.ts';
import type { Tenant } from '../tenant.ts';
import { annotate } from '../trace.ts';
import { findWalletRecord, type WalletRecord } from '../wallets/lookups.ts';
import { intentIdOf, transactionRecordIdOf } from './record-ids.ts';
import {
  type AssetOnRecord,
  findTransaction,
  type LegRecord,
  putTransaction,
  type TransactionRecord,
} from './repo.ts';
import type { P2pBeneficiary, P2pOwn, P2pOwnMulti, SwapBeneficiary, SwapOwn } from './schema.ts';
import { assertSpendable } from './spendable.ts';

export type PaymentOperation =
  | 'payOfframp'
  | 'payOnramp'
  | 'payP2pOwn'
  | 'payP2pOwnMulti'
  | 'payP2pBeneficiary'
  | 'paySwapOwn'
  | 'paySwapBeneficiary';

export interface Acceptance {
  transactionRecordId: string;
  status: 'accepted';
  intentId: string;
  isIdempotent: boolean;
  message: string;
}

const ACCEPTED =
  'Payment accepted; it settles on the ledger within seconds. Read its record for the outcome.';
const REPLAYED =
  'This transactionId was accepted before: the original payment is answered, nothing new was made.';

const decimal = (amount: number) => new BigNumber(String(amount)).toFixed();
export const onRecord = (asset: Asset): AssetOnRecord => ({
  code: asset.assetCode,
  issuer: asset.assetIssuer,
});

/** A member sent with the value its absence means: `notifyEmail: false` asks for what omitting it does. */
const defaults: Record<string, unknown> = { notifyEmail: false, notifyWhatsApp: false };

/**
 * The request as it is fingerprinted, one spelling per meaning: amounts as decimal strings, a null
 * reference or a default flag as absent. Ids arrive in lower case already (lib/http/uuid-field.ts).
 */
function canonicalRequest(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => {
      if (name === 'amount' && typeof value === 'number') return [name, decimal(value)];
      if (name === 'transfers' && Array.isArray(value))
        return [name, value.map((leg) => canonicalRequest(leg as Record<string, unknown>))];
      if (value === defaults[name]) return [name, undefined];
      return [name, value ?? undefined];
    }),
  );
}

function acceptanceOf(record: TransactionRecord, isIdempotent: boolean): Acceptance {
  return {
    transactionRecordId: record.transactionRecordId,
    status: 'accepted',
    intentId: record.intentId,
    isIdempotent,
    message: isIdempotent ? REPLAYED : ACCEPTED,
  };
}

/**
 * 409, as Stripe answers a request whose idempotency key another request is still using: a payment
 * under this transactionId is being accepted and has no record yet. Retried, the request gets the
 * other's record (a replay, or 409 for another body), or is accepted itself if the other failed.
 */
export class TransactionIdInProgress extends Problem {
  constructor() {
    super(409, 'Another request with this transactionId is still being processed.', {
      errors: [
        {
          field: 'transactionId',
          message: 'is being accepted by another request; retry in a moment for its outcome',
        },
      ],
    });
  }
}

function replayOf(existing: TransactionRecord, operation: PaymentOperation, fingerprint: string): Acceptance {
  if (existing.operation === operation && existing.requestFingerprint === fingerprint)
    return acceptanceOf(existing, true);
  throw new Problem(409, 'This transactionId was already used for another payment.', {
    errors: [
      {
        field: 'transactionId',
        message: 'was used with another route or body; send a new transactionId for a new payment',
      },
    ],
  });
}

/** What a route's checks produce: the record without the members every record shares (fee: 0 unless set). */
export type Draft = Partial<Pick<TransactionRecord, 'fee'>> &
  Omit<
    TransactionRecord,
    | 'transactionRecordId'
    | 'environment'
    | 'associationId'
    | 'status'
    | 'operation'
    | 'requestFingerprint'
    | 'idempotencyKey'
    | 'intentId'
    | 'fee'
    | 'stellarTxHash'
    | 'errorCode'
    | 'failureReason'
    | 'createdAt'
    | 'updatedAt'
    | 'completedAt'
  >;

export async function accept(
  tenant: Tenant,
  operation: PaymentOperation,
  body: { transactionId: string } & Record<string, unknown>,
  now: Date,
  check: () => Promise<Draft>,
  requestId?: string,
): Promise<Acceptance> {
  const transactionRecordId = transactionRecordIdOf(tenant, body.transactionId);
  // Every later line of the request names the record it is about (a replay's too).
  logger.appendKeys({ transactionRecordId });
  annotate({ transactionRecordId });
  const fingerprint = purposeOf({ operation, request: canonicalRequest(body) });
  // A replay is answered from the record, whatever has changed since (a wallet rejected, an asset gone).
  const existing = await findTransaction(tenant, transactionRecordId, { consistent: true });
  if (existing) return replayOf(existing, operation, fingerprint);
  let draft: Draft;
  try {
    draft = await check();
  } catch (error) {
    // The request it waited on may have written the record since: then this is a replay of it.
    if (!(error instanceof TransactionIdInProgress)) throw error;
    const written = await findTransaction(tenant, transactionRecordId, { consistent: true });
    if (written) return replayOf(written, operation, fingerprint);
    throw error;
  }
  const record: TransactionRecord = {
    fee: '0',
    ...draft,
    transactionRecordId,
    environment: tenant.environment,
    associationId: tenant.associationId,
    status: 'initiated',
    operation,
    requestFingerprint: fingerprint,
    idempotencyKey: body.transactionId,
    ...(requestId ? { requestId } : {}),
    intentId: intentIdOf(transactionRecordId),
    stellarTxHash: null,
    errorCode: null,
    failureReason: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    completedAt: null,
  };
  const written = await putTransaction(record);
  if (written.outcome === 'conditionFailed') return replayOf(written.current, operation, fingerprint);
  logger.info('Payment accepted', { transactionType: record.transactionType });
  metrics.countAccepted(record);
  return acceptanceOf(record, false);
}

// ── checks ───────────────────────────────────────────────────────────────────────────────────────

/** A wallet of the caller that may take part in a payment: 404 unknown, 403 not Verified, 409 unopenable. */
export async function usableWallet(tenant: Tenant, walletId: string, field: string): Promise<WalletRecord> {
  const wallet = await findWalletRecord(tenant, walletId);
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

export async function registryAsset(tenant: Tenant, assetCode: string, field: string): Promise<Asset> {
  const asset = await findRegistryAsset(tenant.environment, assetCode);
  if (!asset)
    throw unprocessable('Unknown asset.', [{ field, message: `${assetCode} is not in the asset registry` }]);
  return asset;
}

/** Swaps: a second registry asset, another one, reachable from the first on the ledger now. */
async function receivingAsset(
  tenant: Tenant,
  sending: Asset,
  body: { receivingAssetCode: string; amount: number },
): Promise<{ asset: Asset; quoted: string }> {
  const field = 'receivingAssetCode';
  if (body.receivingAssetCode === sending.assetCode)
    throw unprocessable('A swap converts between two assets.', [
      { field, message: 'must differ from sendingAssetCode (same-asset payments are P2P)' },
    ]);
  const receiving = await registryAsset(tenant, body.receivingAssetCode, field);
  const ledgerRef = (asset: Asset) =>
    asset.assetIssuer === null ? ('native' as const) : { code: asset.assetCode, issuer: asset.assetIssuer };
  let paths: Awaited<ReturnType<typeof strictSendPaths>>;
  try {
    paths = await strictSendPaths(tenant.environment, ledgerRef(sending), decimal(body.amount), [
      ledgerRef(receiving),
    ]);
  } catch (error) {
    if (error instanceof LedgerUnavailableError)
      throw serviceUnavailable(
        'The ledger could not be reached to find a conversion path; nothing was accepted.',
      );
    throw error;
  }
  if (paths.length === 0)
    throw unprocessable('No conversion path.', [
      {
        field,
        message: `the ledger has no path from ${sending.assetCode} to ${receiving.assetCode} for this amount`,
      },
    ]);
  // The best path's amount now: with the slippage, the least the swap may deliver when it executes.
  return { asset: receiving, quoted: (paths[0] as (typeof paths)[number]).destinationAmount };
}

type Money = Pick<
  Draft,
  | 'transactionType'
  | 'sendAmount'
  | 'originalSendAmount'
  | 'receiveAmount'
  | 'exchangeRate'
  | 'sendingAsset'
  | 'receivingAsset'
  | 'slippage'
  | 'minReceiveAmount'
>;

/**
 * The money of a one-transfer payment. What is received, and at which rate, is only known once the ledger
 * has delivered it (execution.ts completion()): null until then, for a P2P as for a swap, and for good on
 * a payment that fails.
 */
async function singleTransfer(
  tenant: Tenant,
  body: { sendingAssetCode: string; amount: number },
  receiving: { receivingAssetCode: string } | undefined,
): Promise<Money> {
  const sending = await registryAsset(tenant, body.sendingAssetCode, 'sendingAssetCode');
  const swap = receiving
    ? await receivingAsset(tenant, sending, { ...receiving, amount: body.amount })
    : undefined;
  const amount = decimal(body.amount);
  const slippage = config().SWAP_SLIPPAGE;
  return {
    transactionType: swap ? 'swap' : 'p2p',
    sendAmount: amount,
    originalSendAmount: amount,
    receiveAmount: null,
    exchangeRate: null,
    sendingAsset: onRecord(sending),
    receivingAsset: onRecord(swap?.asset ?? sending),
    slippage: swap ? slippage : null,
    minReceiveAmount: swap ? leastReceived(swap.quoted, slippage).toFixed() : null,
  };
}

function distinctOwn(walletId: string, destinationWalletId: string, field: string): void {
  if (walletId === destinationWalletId)
    throw unprocessable('A P2P transfer moves an asset between two wallets.', [
      { field, message: 'must differ from walletId (a swap may convert within one wallet)' },
    ]);
}

async function ownDraft(
  tenant: Tenant,
  body: P2pOwn,
  receiving?: { receivingAssetCode: string },
): Promise<Draft> {
  if (!receiving) distinctOwn(body.walletId, body.destinationWalletId, 'destinationWalletId');
  const [source, destination] = await Promise.all([
    usableWallet(tenant, body.walletId, 'walletId'),
    usableWallet(tenant, body.destinationWalletId, 'destinationWalletId'),
  ]);
  const money = await singleTransfer(tenant, body, receiving);
  await assertSpendable([
    { from: source, asset: money.sendingAsset, amount: money.sendAmount, field: 'amount' },
  ]);
  return {
    ...money,
    walletId: source.walletId,
    walletPublicKey: source.publicKey,
    destinationWalletId: destination.walletId,
    destinationStellarAddress: destination.publicKey,
    beneficiaryId: null,
    beneficiaryFirstName: null,
    beneficiaryLastName: null,
    paymentDestinationId: null,
    fromRef: body.fromRef ?? null,
    toRef: body.toRef ?? null,
    memo: body.memo ?? null,
    notify: null,
    legs: null,
    walletIds: [...new Set([source.walletId, destination.walletId])],
  };
}

/** The beneficiary's CRYPTO destination: 404 for another beneficiary's, 422 for a fiat one. */
async function cryptoPayee(tenant: Tenant, body: P2pBeneficiary): Promise<Payee> {
  const lookup = await findPayee(tenant, body.beneficiaryId, body.paymentDestinationId);
  if ('missing' in lookup) {
    if (lookup.missing === 'beneficiary')
      throw notFound(`No beneficiary ${body.beneficiaryId}.`, [
        { field: 'beneficiaryId', message: 'is not a beneficiary of yours' },
      ]);
    throw notFound(`No payment destination ${body.paymentDestinationId} for this beneficiary.`, [
      { field: 'paymentDestinationId', message: 'is not a destination of this beneficiary' },
    ]);
  }
  const { destination } = lookup.found;
  if (destination.method !== 'CRYPTO' || !destination.walletAddress)
    throw unprocessable('P2P and swaps pay CRYPTO destinations.', [
      {
        field: 'paymentDestinationId',
        message: `is a ${destination.method} destination: pay it with POST /payments/offramp`,
      },
    ]);
  return lookup.found;
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

async function beneficiaryDraft(
  tenant: Tenant,
  body: P2pBeneficiary,
  receiving?: { receivingAssetCode: string },
): Promise<Draft> {
  const [source, payee] = await Promise.all([
    usableWallet(tenant, body.walletId, 'walletId'),
    cryptoPayee(tenant, body),
  ]);
  const notify = notifyTarget(payee, body);
  // The destination receives one asset: what a P2P sends, or what a swap converts into.
  const receivedCode = receiving?.receivingAssetCode ?? body.sendingAssetCode;
  if (payee.destination.assetCode !== receivedCode) {
    const field = receiving ? 'receivingAssetCode' : 'sendingAssetCode';
    throw unprocessable('The destination receives another asset.', [
      { field, message: `must be ${payee.destination.assetCode}, the asset of the payment destination` },
    ]);
  }
  const money = await singleTransfer(tenant, body, receiving);
  await assertSpendable([
    { from: source, asset: money.sendingAsset, amount: money.sendAmount, field: 'amount' },
  ]);
  return {
    ...money,
    walletId: source.walletId,
    walletPublicKey: source.publicKey,
    destinationWalletId: null,
    destinationStellarAddress: payee.destination.walletAddress,
    beneficiaryId: payee.beneficiaryId,
    beneficiaryFirstName: payee.firstName,
    beneficiaryLastName: payee.lastName,
    paymentDestinationId: payee.destination.destinationId,
    fromRef: body.fromRef ?? null,
    toRef: body.toRef ?? null,
    memo: null,
    notify,
    legs: null,
    walletIds: [source.walletId],
  };
}

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
  const wallets = new Map<string, WalletRecord>();
  for (const [walletId, field] of fieldOf) wallets.set(walletId, await usableWallet(tenant, walletId, field));
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

// ── routes ───────────────────────────────────────────────────────────────────────────────────────

export const payP2pOwn = (tenant: Tenant, body: P2pOwn, now: Date, requestId?: string) =>
  accept(tenant, 'payP2pOwn', body, now, () => ownDraft(tenant, body), requestId);

export const paySwapOwn = (tenant: Tenant, body: SwapOwn, now: Date, requestId?: string) =>
  accept(tenant, 'paySwapOwn', body, now, () => ownDraft(tenant, body, body), requestId);

export const payP2pBeneficiary = (tenant: Tenant, body: P2pBeneficiary, now: Date, requestId?: string) =>
  accept(tenant, 'payP2pBeneficiary', body, now, () => beneficiaryDraft(tenant, body), requestId);

export const paySwapBeneficiary = (tenant: Tenant, body: SwapBeneficiary, now: Date, requestId?: string) =>
  accept(tenant, 'paySwapBeneficiary', body, now, () => beneficiaryDraft(tenant, body, body), requestId);

export const payP2pOwnMulti = (tenant: Tenant, body: P2pOwnMulti, now: Date, requestId?: string) =>
  accept(tenant, 'payP2pOwnMulti', body, now, () => multiDraft(tenant, body), requestId);
