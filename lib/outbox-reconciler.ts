// The outbox's safety net. A record asks for its work through the table's stream (lib/outbox.ts), and
// the stream keeps a change for 24 hours: a change the router could not send for that long (its batch
// described to the failure queue, then trimmed) would leave a payment `initiated`, or a wallet `pending`
// activation, for ever. While their work is owed such records carry the pending index's keys (by the time
// they entered the state); a scheduled run reads those pending since before the bound and re-drives each
// through the same path: the messages its insert asks for, built by the same rows, to the same queues.
//
// Safe whatever the record is going through: every consumer is idempotent (lib/outbox.ts). A payment in
// flight (submitted, outcome unknown) is settled from its submission record (submitOnce, keyed by its
// intent), never submitted again; a record that moved on is left alone; a webhook event's id names the
// change, so a re-sent `payment.initiated` is one event. A re-driven record's index place moves to the
// run's time, so a payment in flight through a long ledger outage is re-driven once per bound, not once
// per run.
import { sendToQueue } from './aws/queues.ts';
import { config } from './config.ts';
import { markRedriven, type PendingItem, pendingBefore } from './db/pending-index.ts';
import { logger } from './log.ts';
import * as metrics from './metrics.ts';
import { REDRIVEN_MESSAGE, reconciledItemTypes, redriveMessages } from './outbox.ts';
import { isOwed } from './payments/lifecycle/records.ts';
import type { TransactionRecord } from './payments/repo.ts';
import type { Environment } from './tenant.ts';

const ENVIRONMENTS: readonly Environment[] = ['sandbox', 'production'];

export interface ReconcileRun {
  /** Records whose work was sent again (a pending record that asks for nothing is moved, not counted). */
  redriven: number;
  /** Whether the run stopped at RECONCILE_MAX_PER_RUN (the next run takes the rest, oldest first). */
  capped: boolean;
}

/** Re-drives the record; false when its state asks the outbox for nothing (then nothing was sent). */
async function redrive(item: PendingItem, now: Date): Promise<boolean> {
  // The insert as the stream carried it: the rows decide what it asks for, and build it.
  const messages = redriveMessages(item);
  for (const { queue, message } of messages) await sendToQueue(queue, message);
  // After the sends: a run that dies between them re-drives the record again next time, which is harmless.
  // Moved to the back even when nothing was sent, so it never holds the oldest places of every run.
  await markRedriven(item, now.toISOString());
  const facts = {
    itemType: item.type,
    environment: item.environment,
    associationId: item.associationId,
    id: item.transactionRecordId ?? item.walletId,
    pendingSince: item.pendingSk,
  };
  // REDRIVEN_MESSAGE pages (infra's metric filter): only for work that was really re-sent.
  if (messages.length === 0) {
    logger.warn('Outbox reconciler: a pending record asks for nothing in its state; nothing sent', facts);
    return false;
  }
  // A ramp waiting on its provider, or money owed and being retried, is no lost change of the outbox: its
  // worker asks the provider or pays again; owed money has its own alarm (OwedOldestAge).
  if (item.type === 'transaction' && item.status !== 'initiated') {
    logger.info('Outbox reconciler: re-drove a record waiting on its provider or owing money', facts);
    return true;
  }
  logger.warn(REDRIVEN_MESSAGE, { ...facts, queues: messages.map((m) => m.queue) });
  return true;
}

/** Re-drives the records pending since before the bound, oldest first within each type, up to the cap. */
export async function reconcile(now: Date = new Date()): Promise<ReconcileRun> {
  const { RECONCILE_AFTER_SECONDS, RECONCILE_MAX_PER_RUN } = config();
  const before = new Date(now.getTime() - RECONCILE_AFTER_SECONDS * 1000).toISOString();
  let left = RECONCILE_MAX_PER_RUN;
  let redriven = 0;
  for (const environment of ENVIRONMENTS) {
    // Money the platform owes, among what waits past the bound: how much, and for how long.
    let owed = 0;
    let oldest = 0;
    for (const itemType of reconciledItemTypes) {
      if (left === 0) break;
      for (const item of await pendingBefore(environment, itemType, before, left)) {
        if (item.type === 'transaction' && isOwed(item as unknown as TransactionRecord)) {
          owed += 1;
          oldest = Math.max(
            oldest,
            (now.getTime() - Date.parse(String(item.owedSince ?? item.updatedAt))) / 1000,
          );
        }
        if (await redrive(item, now)) redriven += 1;
        left -= 1;
      }
    }
    metrics.countOwed(environment, owed, Math.round(oldest));
  }
  const run = { redriven, capped: left === 0 };
  if (run.capped) logger.warn('Outbox reconciler: cap reached; the next run takes the rest', run);
  return run;
}
