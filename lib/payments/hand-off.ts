// The hand-off to execution: what every accepted payment's record holds when it is written,
// `initiated`. Nothing else happens on the request path: the record's insert asks for the ledger work
// (lib/outbox.ts → the ledger-submitter, execution.ts; a ramp's steps, ramps/execution.ts), so no payment
// can be accepted and never executed, or executed without its record.
import type { Tenant } from '../tenant.ts';
import { intentIdOf } from './record-ids.ts';
import type { TransactionRecord } from './repo.ts';

/** The route that accepted a payment, kept on its record: a replay must come by the same one. */
export type PaymentOperation =
  | 'payOfframp'
  | 'payOnramp'
  | 'payP2pOwn'
  | 'payP2pOwnMulti'
  | 'payP2pBeneficiary'
  | 'paySwapOwn'
  | 'paySwapBeneficiary';

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

/** Who asked, and under which idempotency key and fingerprint (idempotency.ts). */
export interface Acceptor {
  transactionRecordId: string;
  operation: PaymentOperation;
  requestFingerprint: string;
  idempotencyKey: string;
  requestId?: string;
}

/** The record a draft becomes: `initiated`, its ledger intent named, nothing settled yet. */
export function initiatedRecord(
  tenant: Tenant,
  draft: Draft,
  acceptor: Acceptor,
  now: Date,
): TransactionRecord {
  const { transactionRecordId, operation, requestFingerprint, idempotencyKey, requestId } = acceptor;
  return {
    fee: '0',
    ...draft,
    transactionRecordId,
    environment: tenant.environment,
    associationId: tenant.associationId,
    status: 'initiated',
    operation,
    requestFingerprint,
    idempotencyKey,
    ...(requestId ? { requestId } : {}),
    intentId: intentIdOf(transactionRecordId),
    stellarTxHash: null,
    errorCode: null,
    failureReason: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    completedAt: null,
  };
}
