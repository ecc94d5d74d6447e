// Decoding a submitted envelope and deciding whether it may enter a ledger, with stellar-core's checks in
// stellar-core's order (missing op, time bounds, fee, source, sequence, signatures, fee balance, operations,
// unused signatures). A rejection never touches the ledger: no fee, no sequence number consumed.
import type { KeyObject } from 'node:crypto';
import {
  FeeBumpTransaction,
  StrKey,
  type Transaction,
  TransactionBuilder,
  type xdr,
} from '@stellar/stellar-sdk';
import { publicKeyObject, verifySignature } from '../../lib/ledger/ed25519.ts';
import { accountIdOf, isSupported, malformedCode, operationSource } from './operations.ts';
import type { OpOutcome, TxCode, TxOutcome } from './results-xdr.ts';
import { type Account, availableNative, type LedgerState } from './state.ts';

/** The parts of a (V0 or V1) transaction the ledger looks at. */
export interface DecodedTransaction {
  hash: string;
  source: string;
  seqNum: bigint;
  fee: bigint;
  operations: xdr.Operation[];
  signatures: xdr.DecoratedSignature[];
  memo: xdr.Memo;
  timeBounds?: { minTime: bigint; maxTime: bigint };
  ledgerBounds?: { minLedger: number; maxLedger: number };
  minSeqNum?: bigint;
  minSeqAge: bigint;
  minSeqLedgerGap: number;
  extraSigners: xdr.SignerKey[];
}

export interface DecodedEnvelope {
  envelopeXdr: string;
  /** The hash the envelope is known by: the fee bump's own hash for a fee bump. */
  hash: string;
  tx: DecodedTransaction;
  feeBump?: { hash: string; feeSource: string; fee: bigint; signatures: xdr.DecoratedSignature[] };
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

function decodeTransaction(parsed: Transaction): DecodedTransaction {
  const raw = parsed.tx;
  const common = {
    hash: hex(parsed.hash()),
    seqNum: raw.seqNum,
    fee: BigInt(raw.fee),
    operations: raw.operations,
    signatures: parsed.signatures,
    memo: raw.memo,
    minSeqAge: 0n,
    minSeqLedgerGap: 0,
    extraSigners: [],
  };
  if (!('cond' in raw)) {
    // A V0 envelope: a bare ed25519 source and optional time bounds, nothing else.
    const source = StrKey.encodeEd25519PublicKey(raw.sourceAccountEd25519.toBytes());
    return { ...common, source, ...(raw.timeBounds ? { timeBounds: raw.timeBounds } : {}) };
  }
  const decoded: DecodedTransaction = { ...common, source: accountIdOf(raw.sourceAccount) };
  const cond = raw.cond;
  if (cond.type === 'precondTime') decoded.timeBounds = cond.timeBounds;
  if (cond.type === 'precondV2') {
    const v2 = cond.v2;
    if (v2.timeBounds) decoded.timeBounds = v2.timeBounds;
    if (v2.ledgerBounds) decoded.ledgerBounds = v2.ledgerBounds;
    if (v2.minSeqNum !== null) decoded.minSeqNum = v2.minSeqNum;
    decoded.minSeqAge = v2.minSeqAge;
    decoded.minSeqLedgerGap = v2.minSeqLedgerGap;
    decoded.extraSigners = v2.extraSigners;
  }
  return decoded;
}

/** Decodes and hashes an envelope for this network; throws when it is not a transaction envelope at all. */
export function decodeEnvelope(envelopeXdr: string, networkPassphrase: string): DecodedEnvelope {
  const parsed = TransactionBuilder.fromXDR(envelopeXdr, networkPassphrase);
  if (parsed instanceof FeeBumpTransaction) {
    return {
      envelopeXdr,
      hash: hex(parsed.hash()),
      tx: decodeTransaction(parsed.innerTransaction),
      feeBump: {
        hash: hex(parsed.hash()),
        feeSource: accountIdOf(parsed.tx.feeSource),
        fee: parsed.tx.fee,
        signatures: parsed.signatures,
      },
    };
  }
  const tx = decodeTransaction(parsed);
  return { envelopeXdr, hash: tx.hash, tx };
}

/** A signer's signature hint (the last 4 bytes of its key) and its key for native verification. */
interface SignerKey {
  hint: Buffer;
  key: KeyObject;
}

const signerKeys = new Map<string, SignerKey>();
function signerKeyOf(publicKey: string): SignerKey {
  let signer = signerKeys.get(publicKey);
  if (!signer) {
    const raw = StrKey.decodeEd25519PublicKey(publicKey);
    signer = { hint: Buffer.from(raw.subarray(raw.length - 4)), key: publicKeyObject(raw) };
    signerKeys.set(publicKey, signer);
  }
  return signer;
}

/** stellar-core's SignatureChecker: ed25519 signatures matched by hint, verified over the hash, marked used. */
export class SignatureChecker {
  private readonly hash: Uint8Array;
  private readonly signatures: xdr.DecoratedSignature[];
  private readonly used: boolean[];

  constructor(hashHex: string, signatures: xdr.DecoratedSignature[]) {
    this.hash = Buffer.from(hashHex, 'hex');
    this.signatures = signatures;
    this.used = signatures.map(() => false);
  }

  /** True once valid signatures of these signers add up to `needed` (at least one signature is always needed). */
  check(signers: Array<{ key: string; weight: number }>, needed: number): boolean {
    let total = 0;
    for (const signer of signers) {
      if (signer.weight <= 0) continue;
      const { hint, key } = signerKeyOf(signer.key);
      for (let i = 0; i < this.signatures.length; i += 1) {
        const signature = this.signatures[i];
        if (!signature || !hint.equals(Buffer.from(signature.hint.toBytes()))) continue;
        if (!verifySignature(key, this.hash, signature.signature.toBytes())) continue;
        this.used[i] = true;
        total += Math.min(signer.weight, 255);
        if (total >= needed) return true;
        break;
      }
    }
    return false;
  }

  allUsed(): boolean {
    return this.used.every(Boolean);
  }
}

export function signersOf(account: Account): Array<{ key: string; weight: number }> {
  return [{ key: account.id, weight: account.masterWeight }, ...account.signers];
}

/** Fees (stroops) that transactions already waiting for the next ledger will charge this account. */
export type PendingFees = (account: string) => bigint;

/** What validation needs to know about the ledger the transaction would close into. */
export interface ValidationContext {
  state: LedgerState;
  ledger: number;
  closeTime: number;
  /** Absent when nothing is waiting (a ledger closing, or closes on every submission). */
  pendingFees?: PendingFees | undefined;
}

/** What the account can spend on a fee, net of the fees it already owes to waiting transactions (as core's queue counts). */
function feeBalance(ctx: ValidationContext, account: Account): bigint {
  return availableNative(account, ctx.state.baseReserve) - (ctx.pendingFees?.(account.id) ?? 0n);
}

interface Rejection {
  code: TxCode;
  ops?: OpOutcome[];
}

/** The minimum fee: base fee per operation (a fee bump pays for one more). */
export function minFee(state: LedgerState, operations: number): bigint {
  return state.baseFee * BigInt(Math.max(1, operations));
}

function checkBounds(ctx: ValidationContext, tx: DecodedTransaction): TxCode | null {
  const now = BigInt(ctx.closeTime);
  if (tx.timeBounds) {
    if (tx.timeBounds.minTime > now) return 'tx_too_early';
    if (tx.timeBounds.maxTime !== 0n && tx.timeBounds.maxTime < now) return 'tx_too_late';
  }
  if (tx.ledgerBounds) {
    if (tx.ledgerBounds.minLedger > ctx.ledger) return 'tx_too_early';
    if (tx.ledgerBounds.maxLedger !== 0 && tx.ledgerBounds.maxLedger <= ctx.ledger) return 'tx_too_late';
  }
  return null;
}

function checkSequence(ctx: ValidationContext, tx: DecodedTransaction, source: Account): TxCode | null {
  if (tx.minSeqNum === undefined) {
    if (tx.seqNum !== source.seqNum + 1n) return 'tx_bad_seq';
  } else if (source.seqNum < tx.minSeqNum || source.seqNum >= tx.seqNum) {
    return 'tx_bad_seq';
  }
  if (tx.minSeqAge > 0n && BigInt(ctx.closeTime - source.seqTime) < tx.minSeqAge)
    return 'tx_bad_min_seq_age_or_gap';
  if (tx.minSeqLedgerGap > 0 && ctx.ledger - source.seqLedger < tx.minSeqLedgerGap)
    return 'tx_bad_min_seq_age_or_gap';
  return null;
}

/** Extra signers (CAP-21): only ed25519 keys are understood; any other kind counts as unsatisfied. */
function checkExtraSigners(checker: SignatureChecker, tx: DecodedTransaction): boolean {
  return tx.extraSigners.every(
    (signer) =>
      signer.type === 'signerKeyTypeEd25519' &&
      checker.check([{ key: StrKey.encodeEd25519PublicKey(signer.ed25519.toBytes()), weight: 1 }], 0),
  );
}

/** Operation-level validation (core's OperationFrame::checkValid): support, signatures, malformed. */
function checkOperation(
  ctx: ValidationContext,
  checker: SignatureChecker,
  txSource: string,
  op: xdr.Operation,
): OpOutcome {
  const kind = op.body.type;
  if (!isSupported(op)) return { kind, code: 'op_not_supported' };
  const sourceId = operationSource(op, txSource);
  const source = ctx.state.account(sourceId);
  if (source) {
    if (!checker.check(signersOf(source), source.thresholds.med)) return { kind, code: 'op_bad_auth' };
  } else if (!checker.check([{ key: sourceId, weight: 1 }], 0)) {
    // An operation source that does not exist yet (an earlier op may create it) must sign with its own key.
    return { kind, code: 'op_bad_auth' };
  }
  return { kind, code: malformedCode(op, sourceId) ?? 'op_success' };
}

/** Validates a plain transaction, or a fee bump's inner one (which pays no fee of its own: `chargeFee` false). */
function validateTransaction(
  ctx: ValidationContext,
  tx: DecodedTransaction,
  chargeFee: boolean,
): Rejection | null {
  if (tx.operations.length === 0) return { code: 'tx_missing_operation' };
  const bounds = checkBounds(ctx, tx);
  if (bounds) return { code: bounds };
  if (chargeFee && tx.fee < minFee(ctx.state, tx.operations.length)) return { code: 'tx_insufficient_fee' };
  const source = ctx.state.account(tx.source);
  if (!source) return { code: 'tx_no_source_account' };
  const sequence = checkSequence(ctx, tx, source);
  if (sequence) return { code: sequence };
  const checker = new SignatureChecker(tx.hash, tx.signatures);
  if (!checker.check(signersOf(source), source.thresholds.low) || !checkExtraSigners(checker, tx)) {
    return { code: 'tx_bad_auth' };
  }
  if (chargeFee && feeBalance(ctx, source) < tx.fee) return { code: 'tx_insufficient_balance' };
  // Like core, stop at the first bad operation; the ones after it keep their default (success) result.
  const ops: OpOutcome[] = tx.operations.map((op) => ({ kind: op.body.type, code: 'op_success' }));
  for (let i = 0; i < tx.operations.length; i += 1) {
    const op = tx.operations[i];
    if (!op) continue;
    const outcome = checkOperation(ctx, checker, tx.source, op);
    if (outcome.code !== 'op_success') {
      ops[i] = outcome;
      return { code: 'tx_failed', ops };
    }
  }
  if (!checker.allUsed()) return { code: 'tx_bad_auth_extra' };
  return null;
}

/** Null when the envelope may be applied, else the (never applied) failure result. */
export function validateEnvelope(ctx: ValidationContext, envelope: DecodedEnvelope): TxOutcome | null {
  const tx = envelope.tx;
  const feeBump = envelope.feeBump;
  if (!feeBump) {
    const rejection = validateTransaction(ctx, tx, true);
    return rejection && { feeCharged: minFee(ctx.state, tx.operations.length), ...rejection };
  }
  const operations = tx.operations.length;
  const feeCharged = minFee(ctx.state, operations + 1);
  const reject = (code: TxCode): TxOutcome => ({ feeCharged, code });
  if (feeBump.fee < feeCharged) return reject('tx_insufficient_fee');
  // The bump must also bid at least the inner transaction's rate per operation.
  if (feeBump.fee * minFee(ctx.state, operations) < tx.fee * feeCharged) return reject('tx_insufficient_fee');
  const feeSource = ctx.state.account(feeBump.feeSource);
  if (!feeSource) return reject('tx_no_source_account');
  const checker = new SignatureChecker(feeBump.hash, feeBump.signatures);
  if (!checker.check(signersOf(feeSource), feeSource.thresholds.low)) return reject('tx_bad_auth');
  if (feeBalance(ctx, feeSource) < feeBump.fee) return reject('tx_insufficient_balance');
  if (!checker.allUsed()) return reject('tx_bad_auth_extra');
  const inner = validateTransaction(ctx, tx, false);
  return inner && { feeCharged, code: 'tx_fee_bump_inner_failed', inner: { hash: tx.hash, ...inner } };
}
