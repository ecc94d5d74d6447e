// Money the platform owes, for platform operations (`npm run admin -- owed list|redrive`): off-ramp
// refunds and on-ramp and receipt credits not yet landed (lib/payments/lifecycle: the states marked
// owed). The ledger-submitter pays them until they land, and the reconciler re-drives them; this lists
// them with their age and last refusal, and re-drives one now (once its cause is cleared, say).
import { sendToQueue } from '../aws/queues.ts';
import { type PendingItem, pendingAll } from '../db/pending-index.ts';
import { redriveMessages } from '../outbox.ts';
import { isOwed, stateOf } from '../payments/lifecycle/records.ts';
import { type TransactionRecord, transactionOf } from '../payments/repo.ts';
import type { Environment } from '../tenant.ts';
import { AdminRefusal } from './refusal.ts';

export interface OwedPayment {
  transactionRecordId: string;
  associationId: string;
  type: string;
  state: string;
  /** What is owed, in the asset paid: a refund's originalSendAmount, a credit's receiveAmount. */
  amount: string | null;
  assetCode: string;
  attempt: number;
  owedSince: string | null;
  ageSeconds: number | null;
  lastRefusal: string | null;
}

const owedOf = (record: TransactionRecord, now: Date): OwedPayment => {
  const refund = record.transactionType === 'offramp';
  const since = record.owedSince ?? null;
  return {
    transactionRecordId: record.transactionRecordId,
    associationId: record.associationId,
    type: record.transactionType,
    state: stateOf(record),
    amount: refund ? record.originalSendAmount : record.receiveAmount,
    assetCode: (refund ? record.sendingAsset : record.receivingAsset).code,
    attempt: record.owedAttempt ?? 1,
    owedSince: since,
    ageSeconds: since ? Math.round((now.getTime() - Date.parse(since)) / 1000) : null,
    lastRefusal: record.owedRefusal ?? null,
  };
};

/** The items as the index holds them (a re-drive reads their keys and type), each owing money. */
async function owedItems(environment: Environment): Promise<PendingItem[]> {
  return (await pendingAll(environment, 'transaction')).filter((item) => isOwed(transactionOf(item)));
}

/** Everything owed in the environment, oldest first. */
export async function listOwed(environment: Environment, now = new Date()): Promise<OwedPayment[]> {
  return (await owedItems(environment))
    .map((item) => owedOf(transactionOf(item), now))
    .sort((a, b) => (a.owedSince ?? '').localeCompare(b.owedSince ?? ''));
}

/** Asks the ledger-submitter to pay one owed record now: the message the reconciler would send. */
export async function redriveOwed(
  environment: Environment,
  transactionRecordId: string,
): Promise<OwedPayment> {
  const item = (await owedItems(environment)).find((i) => i.transactionRecordId === transactionRecordId);
  if (!item)
    throw new AdminRefusal(
      `Nothing is owed on ${transactionRecordId} in ${environment} (paid, or not a record of money owed)`,
    );
  for (const { queue, message } of redriveMessages(item)) await sendToQueue(queue, message);
  return owedOf(transactionOf(item), new Date());
}
