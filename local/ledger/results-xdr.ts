// Transaction outcomes as data, and their two renderings: the real `TransactionResult` XDR (built with the SDK's
// types, so `submitTransaction` and `TransactionFailedError.getTransactionResult()` decode it) and Horizon's
// `extras.result_codes`.
import { Keypair, xdr } from '@stellar/stellar-sdk';
import { toXdrAsset } from './assets.ts';
import type { PoolTrade } from './pools.ts';
import type { LedgerAsset } from './types.ts';

/** Horizon's spelling of TransactionResultCode. */
export type TxCode =
  | 'tx_success'
  | 'tx_failed'
  | 'tx_too_early'
  | 'tx_too_late'
  | 'tx_missing_operation'
  | 'tx_bad_seq'
  | 'tx_bad_auth'
  | 'tx_insufficient_balance'
  | 'tx_no_source_account'
  | 'tx_insufficient_fee'
  | 'tx_bad_auth_extra'
  | 'tx_internal_error'
  | 'tx_not_supported'
  | 'tx_bad_min_seq_age_or_gap'
  | 'tx_malformed'
  | 'tx_fee_bump_inner_success'
  | 'tx_fee_bump_inner_failed';

/** One operation's result: Horizon's code (op_success, op_underfunded, op_bad_auth…) for an XDR body type. */
export interface OpOutcome {
  kind: xdr.OperationBody['type'];
  code: string;
  /** PathPaymentStrictSend success details, for the XDR result's offers and `last`. */
  strictSend?: { trades: PoolTrade[]; destination: string; asset: LedgerAsset; amount: bigint };
}

export interface InnerOutcome {
  hash: string;
  code: TxCode;
  ops?: OpOutcome[];
}

export interface TxOutcome {
  feeCharged: bigint;
  code: TxCode;
  /** For tx_success / tx_failed. */
  ops?: OpOutcome[];
  /** For a fee bump: the inner transaction's result (tx_fee_bump_inner_success / _failed). */
  inner?: InnerOutcome;
}

export function isSuccess(outcome: TxOutcome): boolean {
  return outcome.code === 'tx_success' || outcome.code === 'tx_fee_bump_inner_success';
}

/** A failed transaction that still made it into a ledger (fee charged, sequence consumed). */
export function isIncluded(outcome: TxOutcome): boolean {
  if (outcome.inner) return outcome.inner.code === 'tx_success' || outcome.inner.code === 'tx_failed';
  return outcome.code === 'tx_success' || outcome.code === 'tx_failed';
}

export function resultCodes(outcome: TxOutcome): {
  transaction: TxCode;
  inner_transaction?: TxCode;
  operations?: string[];
} {
  const ops = outcome.inner ? outcome.inner.ops : outcome.ops;
  return {
    transaction: outcome.code,
    ...(outcome.inner ? { inner_transaction: outcome.inner.code } : {}),
    ...(ops ? { operations: ops.map((op) => op.code) } : {}),
  };
}

const CREATE_ACCOUNT: Record<string, () => xdr.CreateAccountResult> = {
  op_success: () => xdr.CreateAccountResult.createAccountSuccess(),
  op_malformed: () => xdr.CreateAccountResult.createAccountMalformed(),
  op_underfunded: () => xdr.CreateAccountResult.createAccountUnderfunded(),
  op_low_reserve: () => xdr.CreateAccountResult.createAccountLowReserve(),
  op_already_exists: () => xdr.CreateAccountResult.createAccountAlreadyExist(),
};

const PAYMENT: Record<string, () => xdr.PaymentResult> = {
  op_success: () => xdr.PaymentResult.paymentSuccess(),
  op_malformed: () => xdr.PaymentResult.paymentMalformed(),
  op_underfunded: () => xdr.PaymentResult.paymentUnderfunded(),
  op_src_no_trust: () => xdr.PaymentResult.paymentSrcNoTrust(),
  op_src_not_authorized: () => xdr.PaymentResult.paymentSrcNotAuthorized(),
  op_no_destination: () => xdr.PaymentResult.paymentNoDestination(),
  op_no_trust: () => xdr.PaymentResult.paymentNoTrust(),
  op_not_authorized: () => xdr.PaymentResult.paymentNotAuthorized(),
  op_line_full: () => xdr.PaymentResult.paymentLineFull(),
  op_no_issuer: () => xdr.PaymentResult.paymentNoIssuer(),
};

const CHANGE_TRUST: Record<string, () => xdr.ChangeTrustResult> = {
  op_success: () => xdr.ChangeTrustResult.changeTrustSuccess(),
  op_malformed: () => xdr.ChangeTrustResult.changeTrustMalformed(),
  op_no_issuer: () => xdr.ChangeTrustResult.changeTrustNoIssuer(),
  op_invalid_limit: () => xdr.ChangeTrustResult.changeTrustInvalidLimit(),
  op_low_reserve: () => xdr.ChangeTrustResult.changeTrustLowReserve(),
  op_self_not_allowed: () => xdr.ChangeTrustResult.changeTrustSelfNotAllowed(),
  op_trust_line_missing: () => xdr.ChangeTrustResult.changeTrustTrustLineMissing(),
};

const POOL_DEPOSIT: Record<string, () => xdr.LiquidityPoolDepositResult> = {
  op_success: () => xdr.LiquidityPoolDepositResult.liquidityPoolDepositSuccess(),
  op_malformed: () => xdr.LiquidityPoolDepositResult.liquidityPoolDepositMalformed(),
  op_no_trust: () => xdr.LiquidityPoolDepositResult.liquidityPoolDepositNoTrust(),
  op_underfunded: () => xdr.LiquidityPoolDepositResult.liquidityPoolDepositUnderfunded(),
  op_line_full: () => xdr.LiquidityPoolDepositResult.liquidityPoolDepositLineFull(),
  op_bad_price: () => xdr.LiquidityPoolDepositResult.liquidityPoolDepositBadPrice(),
  op_pool_full: () => xdr.LiquidityPoolDepositResult.liquidityPoolDepositPoolFull(),
};

const STRICT_SEND: Record<string, () => xdr.PathPaymentStrictSendResult> = {
  op_malformed: () => xdr.PathPaymentStrictSendResult.pathPaymentStrictSendMalformed(),
  op_underfunded: () => xdr.PathPaymentStrictSendResult.pathPaymentStrictSendUnderfunded(),
  op_src_no_trust: () => xdr.PathPaymentStrictSendResult.pathPaymentStrictSendSrcNoTrust(),
  op_src_not_authorized: () => xdr.PathPaymentStrictSendResult.pathPaymentStrictSendSrcNotAuthorized(),
  op_no_destination: () => xdr.PathPaymentStrictSendResult.pathPaymentStrictSendNoDestination(),
  op_no_trust: () => xdr.PathPaymentStrictSendResult.pathPaymentStrictSendNoTrust(),
  op_not_authorized: () => xdr.PathPaymentStrictSendResult.pathPaymentStrictSendNotAuthorized(),
  op_line_full: () => xdr.PathPaymentStrictSendResult.pathPaymentStrictSendLineFull(),
  op_too_few_offers: () => xdr.PathPaymentStrictSendResult.pathPaymentStrictSendTooFewOffers(),
  op_cross_self: () => xdr.PathPaymentStrictSendResult.pathPaymentStrictSendOfferCrossSelf(),
  op_under_dest_min: () => xdr.PathPaymentStrictSendResult.pathPaymentStrictSendUnderDestmin(),
};

const ZERO_ACCOUNT = Keypair.fromRawEd25519Seed(new Uint8Array(32)).publicKey();

function strictSendSuccess(op: OpOutcome): xdr.PathPaymentStrictSendResult {
  const details = op.strictSend ?? { trades: [], destination: ZERO_ACCOUNT, asset: 'native', amount: 0n };
  const offers = details.trades.map((trade) =>
    xdr.ClaimAtom.claimAtomTypeLiquidityPool(
      new xdr.ClaimLiquidityAtom({
        liquidityPoolId: new xdr.PoolId(trade.pool.id),
        assetSold: toXdrAsset(trade.sold.asset),
        amountSold: trade.sold.amount,
        assetBought: toXdrAsset(trade.bought.asset),
        amountBought: trade.bought.amount,
      }),
    ),
  );
  const last = new xdr.SimplePaymentResult({
    destination: Keypair.fromPublicKey(details.destination).xdrPublicKey(),
    asset: toXdrAsset(details.asset),
    amount: details.amount,
  });
  return xdr.PathPaymentStrictSendResult.pathPaymentStrictSendSuccess(
    new xdr.PathPaymentStrictSendResultSuccess({ offers, last }),
  );
}

function pick<T>(table: Record<string, () => T>, op: OpOutcome): T {
  const make = table[op.code];
  if (!make) throw new Error(`no ${op.kind} result for ${op.code}`);
  return make();
}

export function operationResultXdr(op: OpOutcome): xdr.OperationResult {
  switch (op.code) {
    case 'op_bad_auth':
      return xdr.OperationResult.opBadAuth();
    case 'op_no_source_account':
      return xdr.OperationResult.opNoAccount();
    case 'op_not_supported':
      return xdr.OperationResult.opNotSupported();
  }
  switch (op.kind) {
    case 'createAccount':
      return xdr.OperationResult.opInner(xdr.OperationResultTr.createAccount(pick(CREATE_ACCOUNT, op)));
    case 'payment':
      return xdr.OperationResult.opInner(xdr.OperationResultTr.payment(pick(PAYMENT, op)));
    case 'changeTrust':
      return xdr.OperationResult.opInner(xdr.OperationResultTr.changeTrust(pick(CHANGE_TRUST, op)));
    case 'liquidityPoolDeposit':
      return xdr.OperationResult.opInner(xdr.OperationResultTr.liquidityPoolDeposit(pick(POOL_DEPOSIT, op)));
    case 'pathPaymentStrictSend':
      return xdr.OperationResult.opInner(
        xdr.OperationResultTr.pathPaymentStrictSend(
          op.code === 'op_success' ? strictSendSuccess(op) : pick(STRICT_SEND, op),
        ),
      );
    default:
      // Only reachable for the untouched tail of a transaction that failed validation earlier; this ledger
      // would have answered op_not_supported had it got there.
      return xdr.OperationResult.opNotSupported();
  }
}

/** The static factories a transaction result union has; the outer and the fee-bump inner unions share them. */
interface ResultUnion<T> {
  txSuccess(ops: xdr.OperationResult[]): T;
  txFailed(ops: xdr.OperationResult[]): T;
  txTooEarly(): T;
  txTooLate(): T;
  txMissingOperation(): T;
  txBadSeq(): T;
  txBadAuth(): T;
  txInsufficientBalance(): T;
  txNoAccount(): T;
  txInsufficientFee(): T;
  txBadAuthExtra(): T;
  txNotSupported(): T;
  txBadMinSeqAgeOrGap(): T;
  txMalformed(): T;
  txInternalError(): T;
}

function resultOf<T>(R: ResultUnion<T>, code: TxCode, ops: xdr.OperationResult[]): T {
  switch (code) {
    case 'tx_success':
      return R.txSuccess(ops);
    case 'tx_failed':
      return R.txFailed(ops);
    case 'tx_too_early':
      return R.txTooEarly();
    case 'tx_too_late':
      return R.txTooLate();
    case 'tx_missing_operation':
      return R.txMissingOperation();
    case 'tx_bad_seq':
      return R.txBadSeq();
    case 'tx_bad_auth':
      return R.txBadAuth();
    case 'tx_insufficient_balance':
      return R.txInsufficientBalance();
    case 'tx_no_source_account':
      return R.txNoAccount();
    case 'tx_insufficient_fee':
      return R.txInsufficientFee();
    case 'tx_bad_auth_extra':
      return R.txBadAuthExtra();
    case 'tx_not_supported':
      return R.txNotSupported();
    case 'tx_bad_min_seq_age_or_gap':
      return R.txBadMinSeqAgeOrGap();
    case 'tx_malformed':
      return R.txMalformed();
    default:
      return R.txInternalError();
  }
}

const transactionResultResult = (code: TxCode, ops: xdr.OperationResult[]) =>
  resultOf<xdr.TransactionResultResult>(xdr.TransactionResultResult, code, ops);

const innerResultResult = (code: TxCode, ops: xdr.OperationResult[]) =>
  resultOf<xdr.InnerTransactionResultResult>(xdr.InnerTransactionResultResult, code, ops);

export function transactionResultXdr(outcome: TxOutcome): string {
  let result: xdr.TransactionResultResult;
  if (outcome.inner) {
    const inner = outcome.inner;
    const pair = new xdr.InnerTransactionResultPair({
      transactionHash: inner.hash,
      result: new xdr.InnerTransactionResult({
        // "Always 0. Here for binary compatibility." (Stellar-transaction.x)
        feeCharged: 0n,
        result: innerResultResult(inner.code, (inner.ops ?? []).map(operationResultXdr)),
        ext: xdr.InnerTransactionResultExt.v0(),
      }),
    });
    result =
      outcome.code === 'tx_fee_bump_inner_success'
        ? xdr.TransactionResultResult.txFeeBumpInnerSuccess(pair)
        : xdr.TransactionResultResult.txFeeBumpInnerFailed(pair);
  } else {
    result = transactionResultResult(outcome.code, (outcome.ops ?? []).map(operationResultXdr));
  }
  return new xdr.TransactionResult({
    feeCharged: outcome.feeCharged,
    result,
    ext: xdr.TransactionResultExt.v0(),
  }).toXdr('base64');
}

/**
 * A valid but empty TransactionMeta (v2): one OperationMeta per applied operation, no ledger entry changes.
 * Enough for clients that decode it; we do not track entry-level changes.
 */
export function transactionMetaXdr(appliedOperations: number): string {
  return xdr.TransactionMeta.v2(
    new xdr.TransactionMetaV2({
      txChangesBefore: [],
      operations: Array.from({ length: appliedOperations }, () => new xdr.OperationMeta({ changes: [] })),
      txChangesAfter: [],
    }),
  ).toXdr('base64');
}
