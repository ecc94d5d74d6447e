// Transaction records and their ledger submissions, read straight from the stack's table (consistent
// BatchGetItem, 100 keys a call): how the bench waits for payments to settle without loading the API, and
// what it counts after a burst.
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { recordOf } from '../lib/db/entity.ts';
import { type ItemKey, ledgerKeys, transactionKeys } from '../lib/db/keys.ts';
import type { SubmissionRecord } from '../lib/ledger/submissions.ts';
import type { TransactionRecord } from '../lib/payments/repo.ts';
import { restoredOf } from '../lib/payments/stored-record.ts';
import type { Tenant } from '../lib/tenant.ts';

const BATCH = 100;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Items by key (as `decode` reads them), consistently read; a key with no item is missing from the map. */
async function batchGet<T>(
  db: DynamoDBDocumentClient,
  TableName: string,
  keys: ItemKey[],
  keyOf: (item: T) => string,
  decode: (item: Record<string, unknown>) => T = (item) => item as T,
): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  for (let i = 0; i < keys.length; i += BATCH) {
    let Keys: Record<string, unknown>[] | undefined = keys.slice(i, i + BATCH).map((key) => ({ ...key }));
    while (Keys && Keys.length > 0) {
      const { Responses, UnprocessedKeys }: BatchGetCommandOutput = await db.send(
        new BatchGetCommand({ RequestItems: { [TableName]: { Keys, ConsistentRead: true } } }),
      );
      for (const item of Responses?.[TableName] ?? []) {
        const record = decode(item);
        found.set(keyOf(record), record);
      }
      Keys = UnprocessedKeys?.[TableName]?.Keys;
      if (Keys?.length) await pause(20);
    }
  }
  return found;
}

export interface RecordReader {
  /** The records of `ids` there are, by transactionRecordId. */
  records(ids: readonly string[]): Promise<Map<string, TransactionRecord>>;
  /** The submission records of `intentIds` there are (sandbox), by intentId. */
  submissions(intentIds: readonly string[]): Promise<Map<string, SubmissionRecord>>;
  /**
   * Reads the records every `pollMs` until none of `ids` is `initiated` (or missing), or `capMs` has gone
   * by: the records as last read, and whether the cap came first.
   */
  waitSettled(
    ids: readonly string[],
    options: { pollMs: number; capMs: number },
  ): Promise<{ records: Map<string, TransactionRecord>; capped: boolean }>;
}

export function recordReader(db: DynamoDBDocumentClient, TableName: string, tenant: Tenant): RecordReader {
  const records = (ids: readonly string[]) =>
    batchGet<TransactionRecord>(
      db,
      TableName,
      ids.map((id) => transactionKeys.record(tenant, id)),
      (record) => record.transactionRecordId,
      // Whole, as the repo reads it: the item leaves out what the rest implies (its intentId among them).
      (item) => restoredOf(recordOf(item)) as unknown as TransactionRecord,
    );
  const submissions = (intentIds: readonly string[]) =>
    batchGet<SubmissionRecord>(
      db,
      TableName,
      intentIds.map((id) => ledgerKeys.submission(tenant.environment, id)),
      (item) => item.intentId,
    );
  const waitSettled = async (ids: readonly string[], options: { pollMs: number; capMs: number }) => {
    const deadline = performance.now() + options.capMs;
    const last = new Map<string, TransactionRecord>();
    let waiting = [...ids];
    for (;;) {
      const read = await records(waiting);
      for (const [id, record] of read) last.set(id, record);
      waiting = waiting.filter(
        (id) => read.get(id)?.status !== 'completed' && read.get(id)?.status !== 'failed',
      );
      if (waiting.length === 0) return { records: last, capped: false };
      if (performance.now() > deadline) return { records: last, capped: true };
      await pause(options.pollMs);
    }
  };
  return { records, submissions, waitSettled };
}
