// Payments on the ledger: one or more legs (a wallet paying an account, or converting on the way with a
// strict-send path payment) in ONE transaction, so that they all land or none does: a leg that cannot be
// paid fails the whole payment and moves nothing. Like every wallet operation (operations.ts) it is one
// crash-safe submission on a leased channel, fee-bumped by the funding account, and `build` reads the
// ledger afresh for each envelope: the conversion paths, and the wallets' accounts and trustlines no read
// has shown yet (once shown, they stay so: seen-on-ledger.ts).
//
// A custodial destination that lacks a trustline for what it receives gets it first, through an intent of
// its own per wallet and asset (trustlineIntentId): its ChangeTrust, with the reserve topped up by the
// funding account when the wallet lacks it. However many payments into that wallet arrive at once, and
// however late the ledger reads they build from, they share that one intent, so the platform pays the
// reserve once (docs/decisions/ledger-outcomes.md); the payment waits for it (pending, re-queued) and is
// built once it landed.
//
// Every wallet a payment names was recorded as opened before the payment runs (execution.ts waits for
// activation): not found on the ledger, it is a read lagging behind the ledger, waited for, never the
// payment's failure. `failed` comes only from what the ledger decided.
import { type Asset, Memo, Operation, StrKey } from '@stellar/stellar-sdk';
import type * as xdr from '@stellar/stellar-sdk/xdr';
import BigNumber from 'bignumber.js';
import type { Environment } from '../tenant.ts';
import { LEDGER_DECIMALS, leastReceived, ledgerAmount } from './amounts.ts';
import { fundedEnvelope, onChannel } from './envelopes.ts';
import { LedgerInputError, LedgerRefusal, LedgerUnavailableError } from './errors.ts';
import { horizonGet } from './horizon-json.ts';
import { type LedgerAccount, openedAccount } from './load-account.ts';
import {
  activateAccount,
  assertAccountId,
  assertMemo,
  type CustodialAccount,
  holdsTrustline,
  type LedgerAssetRef,
  type SubmitTuning,
  toAsset,
} from './operations.ts';
import { MAX_PAYMENT_LEGS, MAX_PAYMENT_WALLETS } from './payment-limits.ts';
import { platformAccount } from './platform-accounts.ts';
import { strictSendPaths } from './reads.ts';
import { operationResultsFromXdr } from './result-codes.ts';
import { noteSeen, seenOpen, seenTrustline } from './seen-on-ledger.ts';
import { findSubmission } from './submissions.ts';
import { type BuildContext, type SubmissionOutcome, submitOnce, unavailableVerdict } from './submit.ts';

export { MAX_PAYMENT_LEGS, MAX_PAYMENT_WALLETS };

export interface PaymentLeg {
  /** The source wallet: source of its operation, signs. */
  from: CustodialAccount;
  /** Destination account id (G…). */
  to: string;
  /**
   * Set when the destination is one of our own custodial wallets (it is `to`'s keys): when it lacks a
   * trustline for the asset it receives, its opening intent (trustlineIntentId) opens one first.
   */
  custodialDestination?: CustodialAccount;
  sendAsset: LedgerAssetRef | 'native';
  /** Decimal string, ≤ 7 places. */
  amount: string;
  /** Swap: strict-send path payment into this asset. Absent: a plain Payment of sendAsset. */
  receiveAsset?: LedgerAssetRef | 'native';
  /**
   * Swap: the least the destination may receive whatever the path offers at execution (the bound set
   * when the payment was accepted, from the price then and the slippage). Decimal string.
   */
  minReceive?: string;
}

export interface ExecutePaymentInput extends SubmitTuning {
  environment: Environment;
  intentId: string;
  /** What the payment is for (purpose.ts): the same intent id asked for another payment is refused. */
  purpose?: string;
  /** 1..MAX_PAYMENT_LEGS, in order: one payment or path payment operation per leg, in leg order. */
  legs: PaymentLeg[];
  /** The caller's text memo, at most 28 bytes. */
  memo?: string;
  /**
   * The transaction record the payment executes (a UUID): without a caller's memo, the transaction's
   * memo is a hash memo holding it, so the ledger alone ties the transaction to its record.
   */
  recordId?: string;
  /**
   * Swap legs: destMin = the best strict-send path's destination amount × (1 − slippage), rounded down
   * to 7 places. A decimal string from 0 up to (not including) 1, e.g. '0.01'.
   */
  slippage: string;
  /**
   * The intent is asked for the first time (its record's first message, received once): its submission
   * record is not read first. Should it exist all the same (the stream or the reconciler sent a second
   * message), the first conditional write finds it and adopts it, as after another worker's write
   * (submit.ts): the intent still lands at most once, at the cost of a channel lease and a build.
   */
  firstDelivery?: boolean;
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

/** A custodial destination's trustline, opened by an intent of its own (see the top of this file). */
interface Opening {
  wallet: CustodialAccount;
  asset: Asset;
}

/**
 * One intent per wallet and asset, whatever payment needs it first; a failed one (the funding account
 * short of XLM, say) is followed by the next generation, so a platform fault does not fail the wallet's
 * payments forever. A failed opening moved nothing: the platform still pays one reserve.
 */
export const trustlineIntentId = (wallet: string, asset: Asset, generation = 1): string =>
  `trustline:${wallet}:${asset.getCode()}:${asset.getIssuer()}:${generation}`;

/** The opening's current generation: the first one that has not failed, and its record if it has one. */
async function currentOpening(environment: Environment, { wallet, asset }: Opening) {
  for (let generation = 1; ; generation++) {
    const intentId = trustlineIntentId(wallet.publicKey, asset, generation);
    const record = await findSubmission(environment, intentId);
    if (record?.status !== 'failed') return { intentId, record };
  }
}

/** Whether the account needs a trustline to receive `asset`: not for lumens, nor for its own asset. */
const needsTrustline = (accountId: string, asset: Asset) =>
  !asset.isNative() && asset.getIssuer() !== accountId;

const lacksTrustline = (account: LedgerAccount, asset: Asset) =>
  needsTrustline(account.accountId(), asset) && !holdsTrustline(account, asset);

/** A read showed the account open and able to receive `asset`: nothing to read again (seen-on-ledger.ts). */
const seenReceiving = (environment: Environment, accountId: string, asset: Asset) =>
  seenOpen(environment, accountId) &&
  (!needsTrustline(accountId, asset) || seenTrustline(environment, accountId, asset));

/** The trustlines the custodial destinations want for what they receive. */
function wantedBy(legs: CheckedLeg[]): Opening[] {
  const wanted = new Map<string, Opening>();
  for (const { leg, send, receive } of legs) {
    if (!leg.custodialDestination) continue;
    const asset = receive ?? send;
    wanted.set(trustlineIntentId(leg.to, asset), { wallet: leg.custodialDestination, asset });
  }
  return [...wanted.values()];
}

/** A wallet's account read (openedAccount), what it shows kept (seen-on-ledger.ts). */
async function seenAccount(
  environment: Environment,
  publicKey: string,
  role: string,
): Promise<LedgerAccount> {
  const account = await openedAccount(environment, publicKey, role);
  noteSeen(environment, account);
  return account;
}

/** Ledger reads of accounts by id, shared by the steps of one payment that may use the same read. */
type AccountReads = Map<string, Promise<LedgerAccount>>;

/**
 * Of the `wanted` trustlines, those the ledger does not show now. `accounts` holds the reads made (each
 * account read once), for a later step to reuse.
 */
async function lackingOf(
  environment: Environment,
  wanted: Opening[],
  accounts: AccountReads = new Map(),
): Promise<Opening[]> {
  const lacking = await Promise.all(
    wanted.map(async (opening) => {
      const key = opening.wallet.publicKey;
      if (seenReceiving(environment, key, opening.asset)) return [];
      if (!accounts.has(key)) accounts.set(key, seenAccount(environment, key, 'destination wallet'));
      const account = await (accounts.get(key) as Promise<LedgerAccount>);
      return lacksTrustline(account, opening.asset) ? [opening] : [];
    }),
  );
  return lacking.flat();
}

/**
 * Opens the `wanted` trustlines the ledger does not show, each through its own intent. Null when all are
 * open (settled openings are a no-op); one still in flight, or a ledger that cannot be read, is the
 * `intentId`'s pending outcome (it waits, nothing of its own sent); a failed one fails it with its reason.
 */
async function openTrustlines(
  environment: Environment,
  intentId: string,
  wanted: Opening[],
  tuning: SubmitTuning,
  accounts: AccountReads = new Map(),
): Promise<SubmissionOutcome | null> {
  let outcomes: SubmissionOutcome[];
  try {
    outcomes = await Promise.all(
      (await lackingOf(environment, wanted, accounts)).map(async (opening) =>
        activateAccount({
          environment,
          intentId: (await currentOpening(environment, opening)).intentId,
          account: opening.wallet,
          opened: true,
          // Never native: lumens need no trustline (lacksTrustline).
          trustline: { code: opening.asset.getCode(), issuer: opening.asset.getIssuer() as string },
          ...tuning,
        }),
      ),
    );
  } catch (error) {
    if (!(error instanceof LedgerUnavailableError)) throw error;
    const { errorCode, failureReason } = unavailableVerdict(error);
    return { status: 'pending', intentId, hash: null, attempt: 0, errorCode, failureReason };
  }
  const unsettled = outcomes.find((outcome) => outcome.status !== 'succeeded');
  if (!unsettled) return null;
  const { errorCode, failureReason } = unsettled as Exclude<SubmissionOutcome, { status: 'succeeded' }>;
  const opening = `A destination's trustline ${unsettled.status === 'failed' ? 'could not be' : 'is being'} opened`;
  return {
    status: unsettled.status === 'failed' ? 'failed' : 'pending',
    intentId,
    hash: null,
    attempt: 0,
    errorCode,
    failureReason: `${opening}: ${failureReason}`,
  };
}

/**
 * A custodial wallet's trustline for `asset`, opened when the ledger does not show it, through the one
 * intent every payment into that wallet shares (trustlineIntentId): the sandbox funding of an asset the
 * wallet does not trust yet. Null once it is open; otherwise `intentId`'s pending or failed outcome.
 */
export function openTrustline(
  input: {
    environment: Environment;
    intentId: string;
    wallet: CustodialAccount;
    asset: LedgerAssetRef;
  } & SubmitTuning,
): Promise<SubmissionOutcome | null> {
  const { environment, intentId, wallet, asset, ...tuning } = input;
  assertAccountId(wallet.publicKey, 'The wallet');
  return openTrustlines(environment, intentId, [{ wallet, asset: toAsset(asset) }], tuning);
}

/**
 * Inside a build: every trustline the payment needs is on the ledger. A read that does not show one its
 * opening intent saw land is lagging behind the ledger: waited for, like a wallet not visible yet.
 */
async function assertTrustlinesOpen(
  environment: Environment,
  legs: CheckedLeg[],
  accounts: AccountReads,
): Promise<void> {
  for (const opening of await lackingOf(environment, wantedBy(legs), accounts)) {
    const { record } = await currentOpening(environment, opening);
    if (record?.status !== 'succeeded')
      throw new LedgerUnavailableError(`The trustline for ${opening.asset.getCode()} is not open yet`);
  }
}

/** The transaction's memo: the caller's text, else a hash memo holding the record id (16 bytes, then zeros). */
function memoOf(memo: string | undefined, recordId: string | undefined): Memo | null {
  if (memo) return Memo.text(memo);
  if (!recordId) return null;
  const uuid = Buffer.from(recordId.replaceAll('-', ''), 'hex');
  if (uuid.length !== 16) throw new LedgerInputError('The record id is not a UUID', 'recordId');
  return Memo.hash(Buffer.concat([uuid, Buffer.alloc(16)]));
}

/** A swap leg's conversion: into `destAsset` along the best path now, delivering at least `destMin`. */
interface Conversion {
  destAsset: Asset;
  path: Asset[];
  destMin: string;
}

/**
 * destMin: the path's amount now less the slippage, and never less than the bound set at acceptance: a
 * swap that waited out an outage while the price moved fails (op_under_dest_min) rather than execute
 * at a price the caller never saw.
 */
async function conversionOf(
  environment: Environment,
  { leg, amount }: CheckedLeg,
  destAsset: Asset,
  slippage: BigNumber,
): Promise<Conversion> {
  const [best] = await strictSendPaths(environment, leg.sendAsset, amount, [leg.receiveAsset ?? 'native']);
  if (!best) throw new LedgerRefusal('LEDGER_NO_PATH', NO_PATH);
  const least = leastReceived(best.destinationAmount, slippage);
  const bound = leg.minReceive === undefined ? least : new BigNumber(leg.minReceive);
  // A destMin of zero is malformed: a conversion promises at least one stroop.
  const destMin = BigNumber.max(least, bound, ONE_STROOP).decimalPlaces(LEDGER_DECIMALS).toFixed();
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
  const {
    environment,
    intentId,
    purpose,
    legs: rawLegs,
    memo,
    recordId,
    slippage: rawSlippage,
    firstDelivery,
    ...tuning
  } = input;
  if (!Array.isArray(rawLegs) || rawLegs.length < 1 || rawLegs.length > MAX_PAYMENT_LEGS)
    throw new LedgerInputError(`A payment has 1 to ${MAX_PAYMENT_LEGS} legs`, 'legs');
  const legs = rawLegs.map(checkedLeg);
  assertWalletCount(rawLegs);
  assertMemo(memo);
  const transactionMemo = memoOf(memo, recordId);
  const slippage = checkedSlippage(rawSlippage);
  const funding = await platformAccount(environment, 'funding');

  // The destinations as the openings just read them: the first envelope is built from those reads, every
  // later one (a replacement, seconds or minutes on) reads the ledger afresh.
  let opened: AccountReads = new Map();
  const build = async (ctx: BuildContext) => {
    const accounts = opened;
    opened = new Map();
    const sources = new Set(legs.map(({ leg }) => leg.from.publicKey));
    const unseen = [...sources].filter((source) => !seenOpen(environment, source));
    await Promise.all(unseen.map((source) => seenAccount(environment, source, 'source wallet')));
    await assertTrustlinesOpen(environment, legs, accounts);
    const conversions = await Promise.all(
      legs.map((leg) => (leg.receive ? conversionOf(environment, leg, leg.receive, slippage) : null)),
    );
    const builder = onChannel(ctx);
    for (const [i, leg] of legs.entries()) builder.addOperation(legOperation(leg, conversions[i] ?? null));
    if (transactionMemo) builder.addMemo(transactionMemo);
    // Only accounts with an operation sign: an extra signature is tx_bad_auth_extra.
    const acting = new Map(legs.map(({ leg }) => [leg.from.publicKey, leg.from]));
    return fundedEnvelope(builder, ctx, [...acting.values()], funding);
  };

  // An intent with an envelope resumes from it; the openings come before its first one.
  const known = firstDelivery ? null : ((await findSubmission(environment, intentId)) ?? null);
  if (!known) {
    // An opening is its own intent, whose outcome no caller logs: its line stays INFO.
    const { outcomeLogged: _, ...openingTuning } = tuning;
    const opening = await openTrustlines(environment, intentId, wantedBy(legs), openingTuning, opened);
    if (opening) return opening;
  }
  return submitOnce({ environment, intentId, purpose, build, channel: true, known, ...tuning });
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
