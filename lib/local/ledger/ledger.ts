// The ledger engine: validate a submitted envelope, and if it may enter a ledger, charge the fee, consume the
// sequence number, apply its operations on a fork (committed only if all succeed) and close a ledger for it.
// Everything here is synchronous, so one submission is applied completely before the next is looked at.

import type { xdr } from '@stellar/stellar-sdk';
import { toStroops } from './amounts.ts';
import { History, type OperationRecord, type TransactionRecord, toid } from './history.ts';
import {
  type AppliedOperation,
  accountIdOf,
  applyOperation,
  operationSource,
  publicKeyId,
} from './operations.ts';
import { isSuccess, type TxOutcome, transactionMetaXdr, transactionResultXdr } from './results-xdr.ts';
import { forkEntries, LedgerState } from './state.ts';
import type { LedgerGenesis } from './types.ts';
import { type DecodedEnvelope, decodeEnvelope, minFee, validateEnvelope } from './validation.ts';

export type Submission =
  | { kind: 'malformed'; error: string }
  | { kind: 'rejected'; envelope: DecodedEnvelope; outcome: TxOutcome; resultXdr: string }
  /** In a ledger (now or before); `hash` is the one submitted, which for a fee bump may be the inner hash. */
  | { kind: 'recorded'; hash: string; record: TransactionRecord };

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Everyone an operation touches, for the /accounts/{id}/… history endpoints. */
function participantsOf(op: xdr.Operation, source: string): Set<string> {
  const participants = new Set([source]);
  const body = op.body;
  if (body.type === 'createAccount') participants.add(publicKeyId(body.createAccountOp.destination));
  if (body.type === 'payment') participants.add(accountIdOf(body.paymentOp.destination));
  if (body.type === 'pathPaymentStrictSend')
    participants.add(accountIdOf(body.pathPaymentStrictSendOp.destination));
  return participants;
}

export class Ledger {
  readonly state: LedgerState;
  readonly history = new History();
  readonly networkPassphrase: string;

  constructor(options: {
    networkPassphrase: string;
    genesis: LedgerGenesis;
    baseFee: number;
    baseReserve: string;
  }) {
    if (!Number.isSafeInteger(options.baseFee) || options.baseFee < 1) {
      throw new RangeError(`baseFee must be a positive number of stroops, not ${options.baseFee}`);
    }
    this.networkPassphrase = options.networkPassphrase;
    this.state = new LedgerState(
      options.genesis,
      BigInt(options.baseFee),
      toStroops(options.baseReserve),
      nowSeconds(),
    );
  }

  submit(envelopeXdr: string): Submission {
    let envelope: DecodedEnvelope;
    try {
      envelope = decodeEnvelope(envelopeXdr, this.networkPassphrase);
    } catch (error) {
      return { kind: 'malformed', error: error instanceof Error ? error.message : String(error) };
    }
    // A hash already in a ledger is answered from history and never applied twice (as Horizon does).
    const known = this.history.transaction(envelope.hash);
    if (known) return { kind: 'recorded', hash: envelope.hash, record: known };
    const closeTime = nowSeconds();
    const rejection = validateEnvelope(
      { state: this.state, ledger: this.state.latest.sequence + 1, closeTime },
      envelope,
    );
    if (rejection)
      return { kind: 'rejected', envelope, outcome: rejection, resultXdr: transactionResultXdr(rejection) };
    const record = this.apply(envelope, closeTime);
    this.history.add(record);
    return { kind: 'recorded', hash: envelope.hash, record };
  }

  private apply(envelope: DecodedEnvelope, closeTime: number): TransactionRecord {
    const state = this.state;
    const tx = envelope.tx;
    const ledger = state.latest.sequence + 1;
    const feeAccount = envelope.feeBump?.feeSource ?? tx.source;
    // Without surge pricing the network charges the minimum, not the bid.
    const fee = minFee(state, tx.operations.length + (envelope.feeBump ? 1 : 0));
    const feeSource = state.account(feeAccount);
    const source = state.account(tx.source);
    if (!feeSource || !source) throw new Error('validated transaction lost its source account');
    feeSource.balance -= fee;
    source.seqNum = tx.seqNum;
    source.seqLedger = ledger;
    source.seqTime = closeTime;
    for (const account of [feeSource, source]) {
      account.lastModifiedLedger = ledger;
      account.lastModifiedTime = closeTime;
    }

    const fork = forkEntries(state.entries);
    const context = { entries: fork, baseReserve: state.baseReserve, ledger, closeTime };
    const applied: AppliedOperation[] = tx.operations.map((op) => applyOperation(context, tx.source, op));
    const succeeded = applied.every((result) => result.outcome.code === 'op_success');
    if (succeeded) state.entries = fork;

    const ops = applied.map((result) => result.outcome);
    const code = succeeded ? 'tx_success' : 'tx_failed';
    const outcome: TxOutcome = envelope.feeBump
      ? {
          feeCharged: fee,
          code: succeeded ? 'tx_fee_bump_inner_success' : 'tx_fee_bump_inner_failed',
          inner: { hash: tx.hash, code, ops },
        }
      : { feeCharged: fee, code, ops };
    state.close(closeTime, {
      success: succeeded ? 1 : 0,
      failed: succeeded ? 0 : 1,
      ops: succeeded ? ops.length : 0,
      fees: fee,
    });

    const record: TransactionRecord = {
      hash: envelope.hash,
      ...(envelope.feeBump ? { innerHash: tx.hash } : {}),
      id: toid(ledger, 1, 0),
      ledger,
      closeTime,
      envelope,
      outcome,
      successful: isSuccess(outcome),
      resultXdr: transactionResultXdr(outcome),
      resultMetaXdr: transactionMetaXdr(succeeded ? ops.length : 0),
      feeAccount,
      participants: new Set([tx.source, feeAccount]),
      operations: [],
    };
    tx.operations.forEach((op, index) => {
      const opSource = operationSource(op, tx.source);
      const result = applied[index];
      if (!result) return;
      const opRecord: OperationRecord = {
        id: toid(ledger, 1, index + 1),
        transaction: record,
        op,
        source: opSource,
        outcome: result.outcome,
        participants: participantsOf(op, opSource),
        effects: [],
      };
      // A failed transaction has no effects.
      if (succeeded) {
        opRecord.effects = result.effects.map((spec, order) => ({
          operation: opRecord,
          order: order + 1,
          spec,
        }));
      }
      for (const participant of opRecord.participants) record.participants.add(participant);
      record.operations.push(opRecord);
    });
    return record;
  }
}
