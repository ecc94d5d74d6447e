// Payments on the ledger: one or more legs (a wallet paying an account, or converting on the way with a
// strict-send path payment) in ONE transaction, so that they all land or none does: a leg that cannot be
// paid fails the whole payment and moves nothing. Like every wallet operation (operations.ts) it is one
// crash-safe submission on a leased channel, fee-bumped by the funding account, and `build` reads the
// ledger afresh for each envelope: the trustlines a destination lacks and the conversion paths.
//
// A custodial destination that lacks a trustline for what it receives gets it in the same transaction,
// before the payments apply: its ChangeTrust, with the reserve topped up by the funding account. The
// limits keep the worst case inside one transaction: 100 operations and 20 signatures.
import { Asset, type Horizon, Memo, Operation, StrKey, type TransactionBuilder } from '@stellar/stellar-sdk';
import type * as xdr from '@stellar/stellar-sdk/xdr';
import BigNumber from 'bignumber.js';
import type { Environment } from '../http/types.ts';
import { LEDGER_DECIMALS, ledgerAmount } from './amounts.ts';
import { openSecret } from './custody.ts';
import { LedgerInputError, LedgerRefusal, LedgerUnavailableError } from './errors.ts';
import { horizonGet } from './horizon-json.ts';
import { findLedgerAccount } from './load-account.ts';
import {
  activeSource,
  assertAccountId,
  assertMemo,
  type CustodialAccount,
  feeBumped,
  holdsTrustline,
  type LedgerAssetRef,
  onChannel,
  reserveShortfall,
  type SubmitTuning,
  signed,
  toAsset,
} from './operations.ts';
import { MAX_PAYMENT_LEGS, MAX_PAYMENT_WALLETS } from './payment-limits.ts';
import { platformAccount } from './platform-accounts.ts';
import { strictSendPaths } from './reads.ts';
import { operationResultsFromXdr } from './result-codes.ts';
import { type BuildContext, type SubmissionOutcome, submitOnce } from './submit.ts';

export { MAX_PAYMENT_LEGS, MAX_PAYMENT_WALLETS };

export interface PaymentLeg {
  /** The source wallet: source of its operation, signs. */
  from: CustodialAccount;
  /** Destination account id (G…). */
  to: string;
  /**
   * Set when the destination is one of our own custodial wallets (it is `to`'s keys): when it lacks a
   * trustline for the asset it receives, the same transaction opens one (ChangeTrust, source = that wallet,
   * it signs) with the reserve topped up by the platform funding account (a native Payment from funding,
   * funding signs the inner tx) — one top-up per wallet covering all its new trustlines.
   */
  custodialDestination?: CustodialAccount;
  sendAsset: LedgerAssetRef | 'native';
  /** Decimal string, ≤ 7 places. */
  amount: string;
  /** Swap: strict-send path payment into this asset. Absent: a plain Payment of sendAsset. */
  receiveAsset?: LedgerAssetRef | 'native';
}

export interface ExecutePaymentInput extends SubmitTuning {
  environment: Environment;
  intentId: string;
  /** What the payment is for (purpose.ts): the same intent id asked for another payment is refused. */
  purpose?: string;
  /** 1..MAX_PAYMENT_LEGS, in order: one payment or path payment operation per leg, in leg order. */
  legs: PaymentLeg[];
  /** A text memo, at most 28 bytes. */
  memo?: string;
  /**
   * Swap legs: destMin = the best strict-send path's destination amount × (1 − slippage), rounded down
   * to 7 places. A decimal string from 0 up to (not including) 1, e.g. '0.01'.
   */
  slippage: string;
}

/** A leg as validated: its amount in the SDK's form and its assets. */
interface CheckedLeg {
  leg: PaymentLeg;
  amount: string;
  send: Asset;
  receive: Asset | null;
}

const ONE_STROOP = new BigNumber(1).shiftedBy(-LEDGER_DECIMALS);
const NO_PATH = 'No conversion path between the assets with enough liquidity.';
const NO_DESTINATION = 'The destination wallet is not active on the ledger.';

function checkedLeg(leg: PaymentLeg): CheckedLeg {
  assertAccountId(leg.from.publicKey, 'The source');
  // A beneficiary's address may be muxed (M…: an account shared by many customers, an exchange's, told
  // apart by its id); our own wallets are plain accounts.
  if (leg.custodialDestination || !StrKey.isValidMed25519PublicKey(leg.to))
    assertAccountId(leg.to, 'The destination');
  if (leg.custodialDestination && leg.custodialDestination.publicKey !== leg.to)
    throw new LedgerInputError('The custodial destination is not the destination', 'custodialDestination');
  const send = toAsset(leg.sendAsset);
  const receive = leg.receiveAsset === undefined ? null : toAsset(leg.receiveAsset);
  if (receive?.equals(send)) throw new LedgerInputError('A swap must receive another asset', 'receiveAsset');
  return { leg, amount: ledgerAmount(leg.amount), send, receive };
}

function checkedSlippage(slippage: string): BigNumber {
  const value =
    typeof slippage === 'string' && /^\d+(\.\d+)?$/.test(slippage) ? new BigNumber(slippage) : null;
  if (!value?.lt(1))
    throw new LedgerInputError('Slippage must be a decimal from 0 up to, not including, 1', 'slippage');
  return value;
}

/** Each wallet may sign (it is the source of an operation): their number bounds the signatures. */
function assertWalletCount(legs: PaymentLeg[]): void {
  const wallets = new Set(legs.flatMap((leg) => [leg.from.publicKey, leg.custodialDestination?.publicKey]));
  wallets.delete(undefined);
  if (wallets.size > MAX_PAYMENT_WALLETS)
    throw new LedgerInputError(`A payment involves at most ${MAX_PAYMENT_WALLETS} wallets`, 'legs');
}

/** A custodial destination as the ledger has it now. */
interface Destination {
  wallet: CustodialAccount;
  account: Horizon.AccountResponse;
}

/** The custodial destinations, each once; one not on the ledger could receive nothing. */
async function custodialDestinations(environment: Environment, legs: CheckedLeg[]): Promise<Destination[]> {
  const wallets = new Map(
    legs.flatMap(({ leg }) => (leg.custodialDestination ? [[leg.to, leg.custodialDestination]] : [])),
  );
  return Promise.all(
    [...wallets.values()].map(async (wallet) => {
      const account = await findLedgerAccount(environment, wallet.publicKey);
      if (!account) throw new LedgerRefusal('LEDGER_OP_NO_DESTINATION', NO_DESTINATION);
      return { wallet, account };
    }),
  );
}

/** A custodial destination's trustlines to open, with what it lacks of the reserve they need. */
interface Opening {
  wallet: CustodialAccount;
  assets: Asset[];
  topUp: string;
}

const lacksTrustline = ({ account }: Destination, asset: Asset) =>
  !asset.isNative() && asset.getIssuer() !== account.accountId() && !holdsTrustline(account, asset);

/** The trustlines each custodial destination lacks for what it receives: one opening per wallet. */
function openingsFor(legs: CheckedLeg[], destinations: Destination[]): Opening[] {
  return destinations.flatMap((destination) => {
    const assets: Asset[] = [];
    for (const { leg, send, receive } of legs) {
      const asset = receive ?? send;
      if (leg.to !== destination.wallet.publicKey || !lacksTrustline(destination, asset)) continue;
      if (!assets.some((a) => a.equals(asset))) assets.push(asset);
    }
    if (assets.length === 0) return [];
    return [
      { wallet: destination.wallet, assets, topUp: reserveShortfall(destination.account, assets.length) },
    ];
  });
}

/** Adds an opening's top-up (from funding, when the wallet lacks reserve) and ChangeTrusts: returns who acts. */
function addOpening(
  builder: TransactionBuilder,
  { wallet, assets, topUp }: Opening,
  funding: CustodialAccount,
): CustodialAccount[] {
  const destination = wallet.publicKey;
  if (topUp !== '0')
    builder.addOperation(
      Operation.payment({ source: funding.publicKey, destination, asset: Asset.native(), amount: topUp }),
    );
  for (const asset of assets)
    builder.addOperation(Operation.changeTrust({ asset, source: wallet.publicKey }));
  return topUp === '0' ? [wallet] : [funding, wallet];
}

/** A swap leg's conversion: into `destAsset` along the best path now, delivering at least `destMin`. */
interface Conversion {
  destAsset: Asset;
  path: Asset[];
  destMin: string;
}

async function conversionOf(
  environment: Environment,
  { leg, amount }: CheckedLeg,
  destAsset: Asset,
  slippage: BigNumber,
): Promise<Conversion> {
  const [best] = await strictSendPaths(environment, leg.sendAsset, amount, [leg.receiveAsset ?? 'native']);
  if (!best) throw new LedgerRefusal('LEDGER_NO_PATH', NO_PATH);
  const least = new BigNumber(best.destinationAmount)
    .times(new BigNumber(1).minus(slippage))
    .decimalPlaces(LEDGER_DECIMALS, BigNumber.ROUND_DOWN);
  // A destMin of zero is malformed: a conversion promises at least one stroop.
  const destMin = BigNumber.max(least, ONE_STROOP).toFixed();
  return { destAsset, path: best.path.map(toAsset), destMin };
}

function legOperation({ leg, amount, send }: CheckedLeg, conversion: Conversion | null) {
  const source = leg.from.publicKey;
  if (!conversion) return Operation.payment({ source, destination: leg.to, asset: send, amount });
  return Operation.pathPaymentStrictSend({
    source,
    destination: leg.to,
    sendAsset: send,
    sendAmount: amount,
    ...conversion,
  });
}

/**
 * Pays every leg in one transaction on a channel, fee-bumped by funding (see the top of this file). A
 * source or custodial destination not on the ledger, or a swap without a path, fails the intent before
 * anything is sent.
 */
export async function executePayment(input: ExecutePaymentInput): Promise<SubmissionOutcome> {
  const { environment, intentId, purpose, legs: rawLegs, memo, slippage: rawSlippage, ...tuning } = input;
  if (!Array.isArray(rawLegs) || rawLegs.length < 1 || rawLegs.length > MAX_PAYMENT_LEGS)
    throw new LedgerInputError(`A payment has 1 to ${MAX_PAYMENT_LEGS} legs`, 'legs');
  const legs = rawLegs.map(checkedLeg);
  assertWalletCount(rawLegs);
  assertMemo(memo);
  const slippage = checkedSlippage(rawSlippage);
  const funding = await platformAccount(environment, 'funding');

  const build = async (ctx: BuildContext) => {
    const sources = new Set(legs.map(({ leg }) => leg.from.publicKey));
    await Promise.all([...sources].map((source) => activeSource(environment, source)));
    const openings = openingsFor(legs, await custodialDestinations(environment, legs));
    const conversions = await Promise.all(
      legs.map((leg) => (leg.receive ? conversionOf(environment, leg, leg.receive, slippage) : null)),
    );
    const builder = onChannel(ctx);
    // The trustlines first, so that they exist when the payments apply.
    const openers = openings.flatMap((opening) => addOpening(builder, opening, funding));
    for (const [i, leg] of legs.entries()) builder.addOperation(legOperation(leg, conversions[i] ?? null));
    if (memo) builder.addMemo(Memo.text(memo));
    // Only accounts with an operation sign: an extra signature is tx_bad_auth_extra.
    const acting = new Map([...openers, ...legs.map(({ leg }) => leg.from)].map((a) => [a.publicKey, a]));
    const inner = await signed(builder.build(), ctx, [...acting.values()]);
    return feeBumped(inner, await openSecret(environment, funding.publicKey, funding.sealedSecret), ctx);
  };

  return submitOnce({ environment, intentId, purpose, build, channel: true, ...tuning });
}

/** What the destination of a successful strict-send path payment received, as a 7-place decimal. */
function receivedBy(result: xdr.OperationResult): string[] {
  if (result.type !== 'opInner' || result.tr.type !== 'pathPaymentStrictSend') return [];
  const swap = result.tr.pathPaymentStrictSendResult;
  if (swap.type !== 'pathPaymentStrictSendSuccess') return [];
  return [
    new BigNumber(swap.success.last.amount.toString()).shiftedBy(-LEDGER_DECIMALS).toFixed(LEDGER_DECIMALS),
  ];
}

/**
 * For each swap (path payment strict send) operation of the landed transaction `hash`, in operation
 * order: what its destination received, from the transaction's result XDR (fee bump or not), as a 7-place
 * decimal string. Only the result says it: the path's quote was an estimate, destMin a floor.
 */
export async function pathPaymentReceipts(environment: Environment, hash: string): Promise<string[]> {
  const failure = 'The ledger could not be read (transaction)';
  const tx = await horizonGet<{ successful: boolean; result_xdr: string }>(
    environment,
    ['transactions', hash],
    {},
    failure,
  );
  if (!tx) throw new LedgerUnavailableError(`${failure}: Horizon answered 404`);
  if (!tx.successful) throw new Error(`The transaction ${hash} failed: its swaps delivered nothing`);
  return operationResultsFromXdr(tx.result_xdr).flatMap(receivedBy);
}
