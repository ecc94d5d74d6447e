// A money record's lifecycle as data (the way Stripe draws a PaymentIntent's or a Payout's states, and
// Hyperswitch types its IntentStatus transitions): for each kind of record, one table of
// (state, event) → next state and the effects of the move. An event is what happened (the ledger landed
// or refused a transaction, the provider reported an instruction's state, an owed payment was paid or
// refused); what may follow what is decided here and nowhere else. A pair the table does not name is
// refused: logged and counted, never applied (apply.ts). The tables are in the files beside this one,
// the diagram in docs/lifecycles.md is drawn from them (diagram.ts), and every pair has a unit test.
import type { TransactionStatus } from '../repo.ts';

/** What happened to a record, whoever saw it (the ledger-submitter, a notification, the reconciler). */
export type EventType =
  /** The record's own ledger transaction landed (a payment, an off-ramp's leg). */
  | 'ledger_landed'
  /** The ledger refused it, proven: nothing of it is on the ledger or ever can be (lib/ledger/submit.ts). */
  | 'ledger_refused'
  /** The provider's state of the record's instruction, from its answer, a notification or a read. */
  | 'provider_pending'
  | 'provider_processing'
  | 'provider_completed'
  | 'provider_failed'
  | 'provider_returned'
  /** The provider refused the instruction outright (a 4xx answer to it). */
  | 'provider_rejected'
  /** A payment the platform owes (a refund, an on-ramp's credit) landed on the ledger. */
  | 'owed_paid'
  /** The ledger refused the owed payment, proven; the money is still owed and is paid again later. */
  | 'owed_refused';

export const EVENT_TYPES: readonly EventType[] = [
  'ledger_landed',
  'ledger_refused',
  'provider_pending',
  'provider_processing',
  'provider_completed',
  'provider_failed',
  'provider_returned',
  'provider_rejected',
  'owed_paid',
  'owed_refused',
];

/** What a move does besides writing the record. */
export type Effect =
  /** The record reached completed or failed for the first time: PaymentSettled (lib/metrics.ts). */
  | 'count_settled'
  /** Nothing moved, or the money came back: the ramp no longer counts toward its connector's limits. */
  | 'release_limit_use';

/** One state of a kind: the `status` it shows, and what the platform still has to do. */
export interface StateInfo {
  status: TransactionStatus | string;
  /** Nothing can follow: every event is refused. */
  final?: true;
  /**
   * Not final, but nothing is left for the platform to do: only a late report can move it (a payout that
   * completed may still be returned). Such a record leaves the pending index, as a final one does.
   */
  resting?: true;
  /**
   * The platform owes money in it (a refund, a collected on-ramp's credit): paid by the worker, retried
   * on a fresh intent while the ledger refuses it, counted by age (OwedPayment, lib/metrics.ts).
   */
  owed?: true;
  /** One line for the docs' diagram. */
  means: string;
}

/** A move the table allows: where it goes, what it writes beyond the event's facts, and its effects. */
export interface Move<S extends string> {
  to: S;
  /** The record's errorCode (and a default failureReason when the event brings none). */
  error?: { code: string; reason: string };
  effects?: readonly Effect[];
}

/**
 * A kind's table. `E`: the events it knows, EventType for transaction records; a record of another kind
 * (a provider receipt, lib/onramp-references/receipt-lifecycle.ts) names its own in `events`.
 */
export interface Lifecycle<S extends string, E extends string = EventType> {
  /** The record kind it governs (a transactionType, or several). */
  kind: string;
  initial: S;
  states: Record<S, StateInfo>;
  /** Every event of the kind: each (state, event) pair is either a move or refused. */
  events?: readonly E[];
  moves: { readonly [state in S]?: { readonly [event in E]?: Move<S> } };
}

/** The move the table allows for `event` in `state`, or null: the event is refused there. */
export function decide<S extends string, E extends string>(
  lifecycle: Lifecycle<S, E>,
  state: S,
  event: E,
): Move<S> | null {
  return lifecycle.moves[state]?.[event] ?? null;
}

/** Every (state, event) pair with what the table says of it: the unit tests and the diagram read it. */
export function everyPair<S extends string, E extends string>(
  lifecycle: Lifecycle<S, E>,
): [S, E, Move<S> | null][] {
  const events = lifecycle.events ?? (EVENT_TYPES as readonly string[] as readonly E[]);
  return (Object.keys(lifecycle.states) as S[]).flatMap((state) =>
    events.map((event): [S, E, Move<S> | null] => [state, event, decide(lifecycle, state, event)]),
  );
}
