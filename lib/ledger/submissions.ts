// Submission records: one per intent (a payment leg, a wallet activation...), written BEFORE anything is
// sent to the ledger, holding the signed envelope and its hash. Kept at
// `SUBMISSION#<environment>#<intentId>` / `SUBMISSION` (see ledgerKeys.submission). Each write is
// conditional on the record still being where the writer last saw it, so two workers can never both
// replace an envelope, nor settle an intent twice.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.ts';
import { ledgerKeys } from '../db/keys.ts';
import type { Environment } from '../http/types.ts';

export type SubmissionStatus = 'submitting' | 'succeeded' | 'failed';

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
  /** Hashes of the envelopes this one replaced (each proven unable to land first). */
  previousHashes: string[];
  ledger?: number | null;
  errorCode?: string;
  failureReason?: string;
  createdAt: string;
  updatedAt: string;
}

/** Named conditions of the writes below. */
const clauses = {
  absent: 'attribute_not_exists(pk)',
  /** Still in flight with the envelope the writer last saw. */
  stillHolds: '#status = :submitting AND #hash = :expectedHash',
} as const;

const item = (record: SubmissionRecord) => ({
  ...ledgerKeys.submission(record.environment, record.intentId),
  type: 'ledgerSubmission',
  ...record,
});

const toRecord = (stored: Record<string, unknown>): SubmissionRecord => {
  const { pk: _pk, sk: _sk, type: _type, ...record } = stored;
  return record as unknown as SubmissionRecord;
};

export async function findSubmission(
  environment: Environment,
  intentId: string,
): Promise<SubmissionRecord | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: ledgerKeys.submission(environment, intentId),
      ConsistentRead: true,
    }),
  );
  return Item ? toRecord(Item) : undefined;
}

/** What a conditional write found instead when it lost: the record as it is now. */
export type WriteResult = { written: true } | { written: false; current: SubmissionRecord | undefined };

async function conditionally(
  write: () => Promise<unknown>,
  environment: Environment,
  intentId: string,
): Promise<WriteResult> {
  try {
    await write();
    return { written: true };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return { written: false, current: await findSubmission(environment, intentId) };
  }
}

/**
 * Writes a whole record (a new envelope, or an outcome reached without submitting) if the intent has no
 * record yet (`expectedHash` undefined) or is still in flight with `expectedHash`.
 */
export function replaceSubmission(record: SubmissionRecord, expectedHash: string | null | undefined) {
  const condition =
    expectedHash === undefined
      ? { ConditionExpression: clauses.absent }
      : {
          ConditionExpression: clauses.stillHolds,
          ExpressionAttributeNames: { '#status': 'status', '#hash': 'hash' },
          ExpressionAttributeValues: { ':submitting': 'submitting', ':expectedHash': expectedHash },
        };
  return conditionally(
    () => db.send(new PutCommand({ TableName: tableName(), Item: item(record), ...condition })),
    record.environment,
    record.intentId,
  );
}

export type Settlement =
  | { status: 'succeeded'; hash: string; ledger: number | null }
  | { status: 'failed'; hash: string | null; errorCode: string; failureReason: string };

/** Records the outcome of the envelope `expectedHash`, if the record still holds it in flight. */
export function settleSubmission(
  environment: Environment,
  intentId: string,
  expectedHash: string | null,
  settlement: Settlement,
  now: Date,
) {
  const values: Record<string, unknown> = {
    ':submitting': 'submitting',
    ':expectedHash': expectedHash,
    ':status': settlement.status,
    ':now': now.toISOString(),
  };
  let set = '#status = :status, updatedAt = :now';
  if (settlement.status === 'succeeded') {
    set += ', #hash = :hash, #ledger = :ledger';
    Object.assign(values, { ':hash': settlement.hash, ':ledger': settlement.ledger });
  } else {
    set += ', errorCode = :errorCode, failureReason = :failureReason';
    Object.assign(values, { ':errorCode': settlement.errorCode, ':failureReason': settlement.failureReason });
  }
  return conditionally(
    () =>
      db.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: ledgerKeys.submission(environment, intentId),
          UpdateExpression: `SET ${set}`,
          ConditionExpression: clauses.stillHolds,
          ExpressionAttributeNames: {
            '#status': 'status',
            '#hash': 'hash',
            ...(settlement.status === 'succeeded' ? { '#ledger': 'ledger' } : {}),
          },
          ExpressionAttributeValues: values,
        }),
      ),
    environment,
    intentId,
  );
}
