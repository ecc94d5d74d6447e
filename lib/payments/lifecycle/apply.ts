// The one way a transaction record's state moves: an event, decided by the record's table
// (records.ts), written conditioned on the state and version the decision read. A write that another
// move beat is decided again against what that move wrote, so a stale report can never undo a later one:
// a `processing` that lost to `completed` is then refused by the table, not written over it. A refused
// event is logged and counted (TransitionRefused), never applied; a provider report that only repeats the
// provider state the record holds is a duplicate, dropped without a count (the alarm is for contradictions).
// Each move appends its entry to the record's history in the same write (history.ts): the timeline.
import { holdsAtVersion } from '../../db/conditions.ts';
import { pendingKeys, transactionKeys } from '../../db/keys.ts';
import { logger } from '../../log.ts';
import * as metrics from '../../metrics.ts';
import type { Tenant } from '../../tenant.ts';
import { releaseRampUse } from '../ramps/usage.ts';
import { type TransactionRecord, updateTransaction } from '../repo.ts';
import { entryOf, type LedgerFacts } from './history.ts';
import { decide, type EventType, type Move } from './machine.ts';
import { lifecycleOf, stateOf, versionOf } from './records.ts';

export interface RecordEvent {
  type: EventType;
  /** The members the event brings to the record (a hash, the provider's reference, an attempt). */
  facts?: Record<string, unknown>;
  /** Why, in the ledger's or the provider's words: the failureReason of a move into a failure. */
  reason?: string | null;
  /** Who saw it: the log line and the refusal's count say so. */
  source: 'ledger-submitter' | 'notification' | 'provider-answer' | 'reconciler' | 'admin';
  /**
   * What the record must still hold for the event to be about it (an owed payment's attempt): a record
   * another move took past that is left as it is.
   */
  onlyIf?: (record: TransactionRecord) => boolean;
  /** For the settlement's count: deliveries of the message and ledger envelopes it took, where known. */
  measures?: { deliveries: number | null; envelopes: number | null };
  /** A ledger transaction the event reports: its ledger and fee, for the history only. */
  ledger?: LedgerFacts;
}

export type Applied =
  | { outcome: 'moved'; record: TransactionRecord; from: string }
  | { outcome: 'refused'; record: TransactionRecord }
  /** The record moved past what the event was about (`onlyIf`): nothing to do. */
  | { outcome: 'superseded'; record: TransactionRecord }
  | { outcome: 'missing' };

/** A provider report of the state the record already knows the provider to be in. */
const repeatsWhatIsKnown = (record: TransactionRecord, event: RecordEvent) =>
  event.facts?.providerStatus !== undefined && event.facts.providerStatus === record.providerStatus;

/** Decisions against a record another move keeps beating before this one gives up (and is retried). */
const ATTEMPTS = 8;

/**
 * What a move writes: the event's facts, the state and its status, the version, the indexes, and its
 * entry in the history.
 */
function changesOf(
  tenant: Tenant,
  record: TransactionRecord,
  move: Move<string>,
  event: RecordEvent,
  now: Date,
) {
  const lifecycle = lifecycleOf(record);
  const target = lifecycle.states[move.to];
  if (!target) throw new Error(`${lifecycle.kind}: no state ${move.to}`);
  const at = now.toISOString();
  const leavesWork = target.final === true || target.resting === true;
  const set: Record<string, unknown> = {
    ...event.facts,
    ...(move.error ? { errorCode: move.error.code, failureReason: event.reason ?? move.error.reason } : {}),
    state: move.to,
    status: target.status,
    ...transactionKeys.statusKeys(tenant, target.status),
    version: versionOf(record) + 1,
    updatedAt: at,
    // The refund row of the outbox (lib/outbox.ts) and the record's readers know a refund is owed by it.
    ...(move.to === 'refund_due' ? { refundDue: true } : {}),
    // How long money has been owed (the reconciler's OwedOldestAge): from when the record first owed it.
    ...(target.owed && !lifecycle.states[stateOf(record)]?.owed ? { owedSince: at } : {}),
    ...(target.status === 'completed' && record.status !== 'completed' ? { completedAt: at } : {}),
    ...(record.status === 'completed' && target.status !== 'completed' ? { completedAt: null } : {}),
    // While work is left the record stays on the pending index, placed by when it entered its state, so
    // the reconciler re-drives what waits too long (lib/outbox-reconciler.ts); it leaves when none is.
    ...(leavesWork ? {} : pendingKeys.of(record.environment, 'transaction', at)),
  };
  const entry = entryOf(record, move, event, stateOf(record), now);
  return {
    set,
    ...(entry ? { append: { history: [entry] } } : {}),
    ...(leavesWork ? { remove: pendingKeys.attributes } : {}),
  };
}

async function runEffects(
  tenant: Tenant,
  record: TransactionRecord,
  move: Move<string>,
  event: RecordEvent,
  now: Date,
) {
  for (const effect of move.effects ?? []) {
    if (effect === 'count_settled' && (record.status === 'completed' || record.status === 'failed'))
      metrics.countSettled(
        { ...record, status: record.status, ...(event.measures ?? { deliveries: null, envelopes: null }) },
        now,
      );
    if (effect === 'release_limit_use' && record.ramp)
      await releaseRampUse(tenant, record.ramp.connectorId, record.transactionRecordId);
  }
}

/**
 * Applies `event` to the record as it stands (`record` is what the caller read; a write another move
 * beat is decided again against what that move wrote): the record it moved, or why it did not move.
 */
export async function applyEvent(
  tenant: Tenant,
  record: TransactionRecord,
  event: RecordEvent,
  now: Date,
): Promise<Applied> {
  const lifecycle = lifecycleOf(record);
  let current = record;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (event.onlyIf && !event.onlyIf(current)) return { outcome: 'superseded', record: current };
    const from = stateOf(current);
    const move = decide(lifecycle, from, event.type);
    if (!move && repeatsWhatIsKnown(current, event)) {
      // The provider saying again what the record already holds (a retried or duplicated notification,
      // a read by the reconciler): nothing to apply, and nothing wrong.
      logger.debug('Report repeats the record’s state', { state: from, event: event.type });
      return { outcome: 'refused', record: current };
    }
    if (!move) {
      logger.warn('Transition refused: the record’s table does not allow this event in its state', {
        transactionRecordId: current.transactionRecordId,
        kind: current.transactionType,
        state: from,
        event: event.type,
        source: event.source,
      });
      metrics.countTransitionRefused(current, from, event.type, event.source);
      return { outcome: 'refused', record: current };
    }
    const written = await updateTransaction(
      tenant,
      current,
      changesOf(tenant, current, move, event, now),
      holdsAtVersion({ status: current.status }, 'version', versionOf(current)),
    );
    if (written.outcome === 'missing') return { outcome: 'missing' };
    if (written.outcome === 'conditionFailed') {
      current = written.current;
      continue;
    }
    // DEBUG: the move is kept in the record's own timeline (its history, written above), a settled one
    // in its PaymentSettled line, and a P2P payment's in the submitter's `Payment completed`.
    logger.debug('Transaction moved', {
      transactionRecordId: current.transactionRecordId,
      from,
      to: move.to,
      event: event.type,
      source: event.source,
    });
    await runEffects(tenant, written.record, move, event, now);
    return { outcome: 'moved', record: written.record, from };
  }
  throw new Error(
    `Transaction ${record.transactionRecordId}: ${event.type} kept losing to other moves; retried later`,
  );
}
