// Submission records: one per intent (a payment leg, a wallet activation...), written BEFORE anything is
// sent to the ledger, holding the signed envelope and its hash. Kept at
// `SUBMISSION#<environment>#<intentId>` / `SUBMISSION` (see ledgerKeys.submission). Each write is
// conditional on the record still being where the writer last saw it, so two workers can never both
// replace an envelope, nor settle an intent twice.
import { absent, type Condition, holds } from '../db/conditions.ts';
import { entity } from '../db/entity.ts';
import { getRecord, putIf, updateIf, type Written } from '../db/items.ts';
import { ledgerKeys } from '../db/keys.ts';
import type { Environment } from '../tenant.ts';

export type SubmissionStatus = 'submitting' | 'succeeded' | 'failed';

/** What the protocol keeps of an envelope after it is replaced: enough to look it up and to prove it dead. */
export interface EnvelopeRef {
  hash: string;
  /** A fee bump's inner hash: what lands, whoever pays the fee. */
  innerHash?: string;
  /** The inner transaction's source account and sequence number. */
  source: string;
  sequence: string;
  /** Epoch seconds (ledger close time) after which it can no longer land. */
  maxTime: number;
}

export interface SubmissionRecord {
  environment: Environment;
  intentId: string;
  status: SubmissionStatus;
  /** 1 for the first envelope, +1 each time a new one replaces an envelope that can no longer land. */
  attempt: number;
  /** Hash of the envelope (the outer one of a fee bump). null only for an intent that needed none. */
  hash: string | null;
  /** Hash of a fee bump's inner transaction: it is what lands, whoever pays the fee. */
  innerHash?: string;
  envelopeXdr: string | null;
  /** Epoch seconds after which the envelope can no longer land (its inner transaction's maxTime). */
  maxTime: number | null;
  /**
   * Every envelope ever persisted for the intent, the current one last: each is looked up (outer and
   * inner hash) before anything is rebuilt, and a replacement needs proof about each that may still land.
   */
  envelopes: EnvelopeRef[];
  /** The fee level of the current envelope (see BuildContext.feeLevel). */
  feeLevel?: number;
  /** How many of `envelopes` (from the first) are proven unable to land. */
  provenDead: number;
  /**
   * What the intent is for (a fingerprint, purpose.ts), when its first caller said: written with the
   * record and kept by every replacement, so a later call for something else is refused (IntentConflict).
   */
  purpose?: string;
  /**
   * A node's terminal rejection of the current envelope (`hash`). Not an outcome by itself: it becomes
   * the intent's failure once every envelope is proven dead, in this call or a later one.
   */
  rejection?: { hash: string; errorCode: string; failureReason: string };
  ledger?: number | null;
  /** The fee the landed transaction charged, in stroops (a fee bump's whole fee); absent when not known. */
  feeCharged?: string;
  errorCode?: string;
  failureReason?: string;
  createdAt: string;
  updatedAt: string;
}

/** A submission record: platform data, one per intent and environment. */
const submissionEntity = entity<SubmissionRecord>({
  type: 'ledgerSubmission',
  keyOf: (record) => ledgerKeys.submission(record.environment, record.intentId),
});

/** Named conditions of the writes below. */
const conditions = {
  /** The intent has no record yet. */
  absent,
  /** Still in flight with the envelope the writer last saw. */
  stillHolds: (expectedHash: string | null): Condition => holds({ status: 'submitting', hash: expectedHash }),
};

export const findSubmission = (environment: Environment, intentId: string) =>
  getRecord<SubmissionRecord>(ledgerKeys.submission(environment, intentId), { consistent: true });

/** What a conditional write found instead when it lost: the record as it is now. */
export type WriteResult = { written: true } | { written: false; current: SubmissionRecord | undefined };

const resultOf = (written: Written<SubmissionRecord>): WriteResult =>
  written.outcome === 'written'
    ? { written: true }
    : { written: false, current: written.outcome === 'conditionFailed' ? written.current : undefined };

/**
 * Writes a whole record (a new envelope, or an outcome reached without submitting) if the intent has no
 * record yet (`expectedHash` undefined) or is still in flight with `expectedHash`.
 */
export async function replaceSubmission(
  record: SubmissionRecord,
  expectedHash: string | null | undefined,
): Promise<WriteResult> {
  const condition = expectedHash === undefined ? conditions.absent : conditions.stillHolds(expectedHash);
  return resultOf(await putIf(submissionEntity, record, condition));
}

export type Settlement =
  | { status: 'succeeded'; hash: string; ledger: number | null; feeCharged?: string }
  | { status: 'failed'; hash: string | null; errorCode: string; failureReason: string };

/** Records the outcome of the envelope `expectedHash`, if the record still holds it in flight. */
export async function settleSubmission(
  environment: Environment,
  intentId: string,
  expectedHash: string | null,
  settlement: Settlement,
  now: Date,
): Promise<WriteResult> {
  const set =
    settlement.status === 'succeeded'
      ? {
          status: settlement.status,
          hash: settlement.hash,
          ledger: settlement.ledger,
          ...(settlement.feeCharged ? { feeCharged: settlement.feeCharged } : {}),
        }
      : {
          status: settlement.status,
          errorCode: settlement.errorCode,
          failureReason: settlement.failureReason,
        };
  return resultOf(
    await updateIf<SubmissionRecord>(
      ledgerKeys.submission(environment, intentId),
      { set: { ...set, updatedAt: now.toISOString() } },
      conditions.stillHolds(expectedHash),
    ),
  );
}

/** Notes a node's terminal rejection of the envelope `expectedHash`, if the record still holds it in flight. */
export async function noteRejection(
  environment: Environment,
  intentId: string,
  expectedHash: string,
  rejection: { errorCode: string; failureReason: string },
  now: Date,
): Promise<WriteResult> {
  return resultOf(
    await updateIf<SubmissionRecord>(
      ledgerKeys.submission(environment, intentId),
      { set: { rejection: { hash: expectedHash, ...rejection }, updatedAt: now.toISOString() } },
      conditions.stillHolds(expectedHash),
    ),
  );
}
