// What a ledger answer means for the caller: Horizon's `extras.result_codes` (or the result XDR of a
// transaction found by hash) mapped to one verdict — fail for good, build a new envelope, or look the
// hash up because the outcome is unknown.
import * as xdr from '@stellar/stellar-sdk/xdr';

/** Horizon's `extras.result_codes`: `inner_transaction` is set when a fee bump's inner transaction failed. */
export interface ResultCodes {
  transaction: string;
  inner_transaction?: string;
  operations?: string[];
}

/**
 * `fail`: terminal, the intent has failed. `rebuild`: this envelope can never land (stale sequence, fee
 * too low, expired) so a new one may be built. `lookup`: the outcome is unknown, look the hash up.
 */
export type LedgerAction = 'fail' | 'rebuild' | 'lookup';

export interface LedgerVerdict {
  retryable: boolean;
  action: LedgerAction;
  /** `LEDGER_` + the result code in capitals (`LEDGER_OP_UNDERFUNDED`), or a transport code. */
  errorCode: string;
  failureReason: string;
}

const reasons: Record<string, string> = {
  op_underfunded: 'The source wallet does not hold enough of the asset.',
  op_src_no_trust: 'The source wallet does not hold this asset (no trustline).',
  op_src_not_authorized: "The asset's issuer has not authorized the source wallet to hold it.",
  op_no_trust: 'The destination wallet does not accept this asset (no trustline).',
  op_not_authorized: "The asset's issuer has not authorized the destination wallet to hold it.",
  op_line_full: 'The destination wallet cannot hold that much of the asset (trustline limit).',
  op_no_destination: 'The destination account does not exist on the ledger.',
  op_no_issuer: "The asset's issuer does not exist on the ledger.",
  op_low_reserve: 'The account does not hold enough XLM for the ledger reserve.',
  op_already_exists: 'The account already exists on the ledger.',
  op_invalid_limit: 'The trustline limit is below the balance held.',
  op_under_dest_min: 'The conversion would deliver less than the minimum requested.',
  op_over_source_max: 'The conversion would cost more than the maximum allowed.',
  op_too_few_offers: 'There is not enough liquidity to convert the asset.',
  op_cross_self: 'The conversion would trade against an offer of the same account.',
  op_malformed: 'The ledger operation is malformed.',
  op_bad_auth: 'An operation lacks a required signature.',
  op_no_source_account: "An operation's source account does not exist on the ledger.",
  op_not_supported: 'The ledger does not support this operation.',
  op_too_many_subentries: 'The account holds too many trustlines or offers.',
  op_too_many_sponsoring: 'The account sponsors too many entries.',
  op_exceeded_work_limit: 'The operation exceeded the ledger work limit.',
  tx_bad_auth: 'The transaction lacks a required signature.',
  tx_bad_auth_extra: 'The transaction carries signatures that are not needed.',
  tx_insufficient_balance: 'The account paying the fee does not hold enough XLM.',
  tx_no_source_account: 'The source account does not exist on the ledger.',
  tx_too_late: 'The transaction expired before it reached the ledger.',
  tx_too_early: 'The transaction is not valid yet.',
  tx_bad_seq: "The transaction's sequence number is out of date.",
  tx_insufficient_fee: 'The fee offered is below what the ledger currently requires.',
  tx_missing_operation: 'The transaction has no operations.',
  tx_malformed: 'The transaction is malformed.',
  tx_not_supported: 'The ledger does not support this transaction.',
  tx_bad_sponsorship: 'The transaction leaves a sponsorship unfinished.',
  tx_bad_min_seq_age_or_gap: "The transaction's sequence preconditions are not met.",
  tx_internal_error: 'The ledger failed internally while applying the transaction.',
  tx_try_again_later: 'The ledger is busy with another transaction of the same account; try again shortly.',
};

/** Codes that prove this envelope can never land, so building a new one cannot pay twice. */
const rebuildCodes = new Set(['tx_bad_seq', 'tx_insufficient_fee', 'tx_too_late']);
/**
 * Codes that say nothing final: look the hash up and try again later. `tx_try_again_later` is stellar-core's
 * TRY_AGAIN_LATER (its queue holds another transaction of the source account): this envelope was not
 * taken, and the same one may be submitted again once the next ledger has closed.
 */
const lookupCodes = new Set(['tx_too_early', 'tx_internal_error', 'tx_try_again_later']);

const reasonFor = (code: string) => reasons[code] ?? `The ledger rejected the transaction (${code}).`;

function verdictFor(code: string): LedgerVerdict {
  const action: LedgerAction = rebuildCodes.has(code) ? 'rebuild' : lookupCodes.has(code) ? 'lookup' : 'fail';
  return {
    retryable: action !== 'fail',
    action,
    errorCode: `LEDGER_${code.toUpperCase()}`,
    failureReason: reasonFor(code),
  };
}

/** The decisive code: the first failing operation of a failed transaction, else the transaction's own. */
export function decisiveCode(codes: ResultCodes): string {
  const transaction =
    codes.transaction === 'tx_fee_bump_inner_failed' && codes.inner_transaction
      ? codes.inner_transaction
      : codes.transaction;
  if (transaction === 'tx_failed') {
    const failing = (codes.operations ?? []).find((op) => op !== 'op_success');
    if (failing) return failing;
  }
  return transaction;
}

export function classifyResultCodes(codes: ResultCodes): LedgerVerdict {
  return verdictFor(decisiveCode(codes));
}

interface HttpLikeError {
  message?: string;
  response?: { status?: number; data?: { type?: string; extras?: { result_codes?: ResultCodes } } };
}

/** The verdict on an error thrown by `submitTransaction` (Horizon's answer, or no answer at all). */
export function classifySubmissionError(error: unknown): LedgerVerdict {
  const response = (error as HttpLikeError | undefined)?.response;
  const codes = response?.data?.extras?.result_codes;
  if (codes?.transaction) return classifyResultCodes(codes);
  const status = response?.status;
  if (status === 400 && String(response?.data?.type ?? '').endsWith('transaction_malformed')) {
    return verdictFor('tx_malformed');
  }
  const unknown = (errorCode: string, failureReason: string): LedgerVerdict => ({
    retryable: true,
    action: 'lookup',
    errorCode,
    failureReason,
  });
  if (status === 504 || (!status && /timeout|aborted/i.test(String((error as Error)?.message))))
    return unknown('LEDGER_TIMEOUT', 'The ledger did not confirm the transaction in time.');
  if (status === 429) return unknown('LEDGER_RATE_LIMITED', 'The ledger is rate limiting submissions.');
  if (status) return unknown('LEDGER_UNAVAILABLE', `The ledger answered ${status}.`);
  return unknown('LEDGER_UNREACHABLE', 'The ledger could not be reached.');
}

// --- Result XDR (a transaction found by hash carries no result codes, only its result XDR) -------------

const snake = (camel: string) => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** Where Horizon's names differ from a mechanical translation of the XDR names. */
const horizonNames: Record<string, string> = {
  tx_no_account: 'tx_no_source_account',
  op_no_account: 'op_no_source_account',
  op_already_exist: 'op_already_exists',
  op_under_destmin: 'op_under_dest_min',
  op_over_sendmax: 'op_over_source_max',
};
const horizonName = (name: string) => horizonNames[name] ?? name;

function operationCode(result: xdr.OperationResult): string {
  if (result.type !== 'opInner') return horizonName(snake(result.type)); // opBadAuth → op_bad_auth
  const tr = result.tr;
  const inner = (tr.value as { type?: string } | null)?.type ?? '';
  // `paymentUnderfunded` → `Underfunded`; offers share the manage*Offer result type.
  const prefix = [tr.type, 'manageSellOffer', 'manageBuyOffer'].find((p) => inner.startsWith(p)) ?? '';
  const rest = inner.slice(prefix.length);
  return horizonName(rest === 'Success' ? 'op_success' : `op${snake(rest)}`);
}

type OuterResult = xdr.TransactionResult['result'];
type FeeBumpResult = Extract<OuterResult, { type: 'txFeeBumpInnerSuccess' | 'txFeeBumpInnerFailed' }>;

const isFeeBump = (result: OuterResult): result is FeeBumpResult =>
  result.type === 'txFeeBumpInnerSuccess' || result.type === 'txFeeBumpInnerFailed';

/**
 * The results of a transaction's operations from its result XDR (base64), a fee bump's inner transaction's
 * included; none when the transaction failed before applying them.
 */
export function operationResultsFromXdr(resultXdr: string): xdr.OperationResult[] {
  const { result } = xdr.TransactionResult.fromXdr(resultXdr, 'base64');
  const applied = isFeeBump(result) ? result.innerResultPair.result.result : result;
  return 'results' in applied ? applied.results : [];
}

/**
 * The fee a transaction result XDR (base64) says was charged, in stroops (a fee bump's whole fee). The
 * result's first field is its fee, an XDR int64 (8 bytes, big-endian): read where it lies, rather than
 * decoding every operation's result to read one number (on every payment the submitter lands).
 */
export function feeChargedFromXdr(resultXdr: string): string {
  const bytes = Buffer.from(resultXdr, 'base64');
  if (bytes.length < 8) throw new Error('A transaction result XDR shorter than its fee');
  return bytes.readBigInt64BE(0).toString();
}

/** Horizon-style result codes of a transaction result XDR (base64), fee bumps included. */
export function resultCodesFromXdr(resultXdr: string): ResultCodes {
  const { result } = xdr.TransactionResult.fromXdr(resultXdr, 'base64');
  const codes = (type: string, results?: xdr.OperationResult[]) => ({
    transaction: horizonName(snake(type)),
    ...(results ? { operations: results.map(operationCode) } : {}),
  });
  if (isFeeBump(result)) {
    const inner = result.innerResultPair.result.result;
    const innerCodes = codes(inner.type, 'results' in inner ? inner.results : undefined);
    return {
      transaction: horizonName(snake(result.type)),
      inner_transaction: innerCodes.transaction,
      ...(innerCodes.operations ? { operations: innerCodes.operations } : {}),
    };
  }
  return codes(result.type, 'results' in result ? result.results : undefined);
}
