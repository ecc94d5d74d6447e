// One-transfer payments: P2P (one asset) and swaps (converted on the ledger along a path), from one of
// the caller's wallets to another of theirs or to a beneficiary's CRYPTO destination. The four routes
// share one draft builder; what differs is the recipient (RECIPIENTS: how it is found, what it must
// accept, the record members naming it) and whether a second asset is received.
import type { Asset } from '../assets/schema.ts';
import { findPayee, type Payee } from '../beneficiaries/payees.ts';
import { config } from '../config.ts';
import { notFound, serviceUnavailable, unprocessable } from '../http/problem.ts';
import { leastReceived } from '../ledger/amounts.ts';
import { LedgerUnavailableError } from '../ledger/errors.ts';
import { strictSendPaths } from '../ledger/reads.ts';
import type { Tenant } from '../tenant.ts';
import type { WalletRecord } from '../wallets/lookups.ts';
import type { Draft } from './hand-off.ts';
import { accept } from './idempotency.ts';
import type { P2pBeneficiary, P2pOwn, SwapBeneficiary, SwapOwn } from './schema.ts';
import { decimal, notifyTarget, onRecord, registryAsset, usableWallets } from './shared-checks.ts';
import { assertSpendable } from './spendable.ts';

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

/** A swap names the asset its recipient receives; a P2P receives what it sends. */
type Receiving = { receivingAssetCode: string } | undefined;

/** The record members naming who receives a one-transfer payment. */
type RecipientMembers = Pick<
  Draft,
  | 'destinationWalletId'
  | 'destinationStellarAddress'
  | 'beneficiaryId'
  | 'beneficiaryFirstName'
  | 'beneficiaryLastName'
  | 'paymentDestinationId'
  | 'memo'
  | 'notify'
>;

/** What differs between paying one's own wallet and a beneficiary's CRYPTO destination. */
interface Recipient<B, Found> {
  /** The caller's wallets it is, `[walletId, field]`: read in one call with the paying wallet. */
  ownWallets(body: B, receiving: Receiving): [string, string][];
  /**
   * Looked up beside the paying wallet, given that read (the paying wallet first, then `ownWallets`);
   * a check made before any read throws first.
   */
  find(tenant: Tenant, body: B, wallets: Promise<WalletRecord[]>): Promise<Found>;
  /** Once both are found: a 422 when it cannot take this payment, else the members naming it. */
  members(found: Found, body: B, receiving: Receiving): RecipientMembers;
}

const NO_BENEFICIARY = {
  beneficiaryId: null,
  beneficiaryFirstName: null,
  beneficiaryLastName: null,
  paymentDestinationId: null,
} as const;

const ownWallet: Recipient<P2pOwn, WalletRecord> = {
  ownWallets: (body, receiving) => {
    if (!receiving) distinctOwn(body.walletId, body.destinationWalletId, 'destinationWalletId');
    return [[body.destinationWalletId, 'destinationWalletId']];
  },
  find: async (_tenant, _body, wallets) => (await wallets)[1] as WalletRecord,
  members: (destination, body) => ({
    destinationWalletId: destination.walletId,
    destinationStellarAddress: destination.publicKey,
    ...NO_BENEFICIARY,
    memo: body.memo ?? null,
    notify: null,
  }),
};

const beneficiaryDestination: Recipient<P2pBeneficiary, Payee> = {
  ownWallets: () => [],
  find: (tenant, body) => cryptoPayee(tenant, body),
  members: (payee, body, receiving) => {
    const notify = notifyTarget(payee, body);
    // The destination receives one asset: what a P2P sends, or what a swap converts into.
    const receivedCode = receiving?.receivingAssetCode ?? body.sendingAssetCode;
    if (payee.destination.assetCode !== receivedCode) {
      const field = receiving ? 'receivingAssetCode' : 'sendingAssetCode';
      throw unprocessable('The destination receives another asset.', [
        { field, message: `must be ${payee.destination.assetCode}, the asset of the payment destination` },
      ]);
    }
    return {
      destinationWalletId: null,
      destinationStellarAddress: payee.destination.walletAddress,
      beneficiaryId: payee.beneficiaryId,
      beneficiaryFirstName: payee.firstName,
      beneficiaryLastName: payee.lastName,
      paymentDestinationId: payee.destination.destinationId,
      memo: null,
      notify,
    };
  },
};

/** The one draft builder of the four routes: the paying wallet, the recipient, the money, spendable. */
async function transferDraft<B extends P2pOwn | P2pBeneficiary, Found>(
  tenant: Tenant,
  body: B,
  recipient: Recipient<B, Found>,
  receiving?: Receiving,
): Promise<Draft> {
  const wallets = usableWallets(tenant, [
    [body.walletId, 'walletId'],
    ...recipient.ownWallets(body, receiving),
  ]);
  const [read, found] = await Promise.all([wallets, recipient.find(tenant, body, wallets)]);
  const source = read[0] as WalletRecord;
  const to = recipient.members(found, body, receiving);
  const money = await singleTransfer(tenant, body, receiving);
  await assertSpendable([
    { from: source, asset: money.sendingAsset, amount: money.sendAmount, field: 'amount' },
  ]);
  return {
    ...money,
    walletId: source.walletId,
    walletPublicKey: source.publicKey,
    ...to,
    fromRef: body.fromRef ?? null,
    toRef: body.toRef ?? null,
    legs: null,
    walletIds: [...new Set([source.walletId, ...(to.destinationWalletId ? [to.destinationWalletId] : [])])],
  };
}

export const payP2pOwn = (tenant: Tenant, body: P2pOwn, now: Date, requestId?: string) =>
  accept(tenant, 'payP2pOwn', body, now, () => transferDraft(tenant, body, ownWallet), requestId);

export const paySwapOwn = (tenant: Tenant, body: SwapOwn, now: Date, requestId?: string) =>
  accept(tenant, 'paySwapOwn', body, now, () => transferDraft(tenant, body, ownWallet, body), requestId);

export const payP2pBeneficiary = (tenant: Tenant, body: P2pBeneficiary, now: Date, requestId?: string) =>
  accept(
    tenant,
    'payP2pBeneficiary',
    body,
    now,
    () => transferDraft(tenant, body, beneficiaryDestination),
    requestId,
  );

export const paySwapBeneficiary = (tenant: Tenant, body: SwapBeneficiary, now: Date, requestId?: string) =>
  accept(
    tenant,
    'paySwapBeneficiary',
    body,
    now,
    () => transferDraft(tenant, body, beneficiaryDestination, body),
    requestId,
  );
