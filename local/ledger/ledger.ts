// The ledger engine: decide whether an envelope may enter a ledger, and close ledgers. Closing applies each
// transaction in order: charge the fee, consume the sequence number, apply its operations on a fork
// (committed only if all succeed). Everything here is synchronous, so a ledger closes completely before
// anything else looks at the state; when ledgers close (at once, or on a cadence) is node.ts's business.

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
import { forkEntries, type LedgerHeader, LedgerState, type LedgerSummary } from './state.ts';
import type { LedgerGenesis } from './types.ts';
import { type DecodedEnvelope, minFee, type PendingFees, validateEnvelope } from './validation.ts';

/** What became of one transaction handed to `close`: in the ledger (successful or not), or left out. */
export type Closed =
  | { kind: 'recorded'; record: TransactionRecord }
  | { kind: 'rejected'; envelope: DecodedEnvelope; outcome: TxOutcome; resultXdr: string };

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
    /** Unix seconds: genesis's close time. */
    genesisTime: number;
  }) {
    if (!Number.isSafeInteger(options.baseFee) || options.baseFee < 1) {
      throw new RangeError(`baseFee must be a positive number of stroops, not ${options.baseFee}`);
    }
    this.networkPassphrase = options.networkPassphrase;
    this.state = new LedgerState(
      options.genesis,
      BigInt(options.baseFee),
      toStroops(options.baseReserve),
      options.genesisTime,
    );
  }

  /** The close time the next ledger gets: the clock's, but never before the last close (close times never go back). */
  nextCloseTime(clockSeconds: number): number {
    return Math.max(this.state.latest.closeTime, clockSeconds);
  }

  /**
   * Null when the envelope may enter the next ledger at `closeTime`, else the (never applied) failure.
   * `pendingFees` counts the fees already promised by transactions waiting for that ledger.
   */
  validate(envelope: DecodedEnvelope, closeTime: number, pendingFees?: PendingFees): TxOutcome | null {
    return validateEnvelope(
      { state: this.state, ledger: this.state.latest.sequence + 1, closeTime, pendingFees },
      envelope,
    );
  }

  /**
   * Closes the next ledger with these transactions, in this order. Each is validated again against the
   * state the ledger has reached when its turn comes (an earlier one may have spent what it needed, or
   * the ledger may close after its maxTime); one that is no longer valid is left out, charged nothing.
   */
  close(envelopes: DecodedEnvelope[], closeTime: number): { header: LedgerHeader; closed: Closed[] } {
    const ledger = this.state.latest.sequence + 1;
    const summary: LedgerSummary = { success: 0, failed: 0, ops: 0, fees: 0n };
    const closed: Closed[] = [];
    for (const envelope of envelopes) {
      const rejection = validateEnvelope({ state: this.state, ledger, closeTime }, envelope);
      if (rejection) {
        closed.push({
          kind: 'rejected',
          envelope,
          outcome: rejection,
          resultXdr: transactionResultXdr(rejection),
        });
        continue;
      }
      const index = summary.success + summary.failed + 1;
      const record = this.apply(envelope, ledger, index, closeTime);
      if (record.successful) {
        summary.success += 1;
        summary.ops += record.operations.length;
      } else {
        summary.failed += 1;
      }
      summary.fees += record.outcome.feeCharged;
      this.history.add(record);
      closed.push({ kind: 'recorded', record });
    }
    return { header: this.state.close(closeTime, summary), closed };
  }

  private apply(
    envelope: DecodedEnvelope,
    ledger: number,
    index: number,
    closeTime: number,
  ): TransactionRecord {
    const state = this.state;
    const tx = envelope.tx;
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

    const record: TransactionRecord = {
      hash: envelope.hash,
      ...(envelope.feeBump ? { innerHash: tx.hash } : {}),
      id: toid(ledger, index, 0),
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
    tx.operations.forEach((op, opIndex) => {
      const opSource = operationSource(op, tx.source);
      const result = applied[opIndex];
      if (!result) return;
      const opRecord: OperationRecord = {
        id: toid(ledger, index, opIndex + 1),
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
