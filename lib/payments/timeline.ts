// A record's timeline as GET /transactions/{transactionId} answers it: its acceptance, then every move
// its history keeps (lifecycle/history.ts), oldest first, each with the state and status it reached, the
// event that moved it and when; a move a ledger transaction made names it (hash, ledger, fee). A record
// written before the history was kept has what its members say: accepted, the ledger transaction, and
// where it stands now.
import BigNumber from 'bignumber.js';
import { exactNumber, type OnTheWire } from '../http/plain-json.ts';
import { LEDGER_DECIMALS } from '../ledger/amounts.ts';
import * as z from '../zod.ts';
import { EVENT_TYPES, type EventType } from './lifecycle/machine.ts';
import { lifecycleOf, stateOf } from './lifecycle/records.ts';
import type { HistoryEntry, TransactionRecord } from './repo.ts';

export const timelineStep = z.strictObject({
  at: z.iso.datetime(),
  event: z
    .nullable(z.enum(['accepted', ...EVENT_TYPES]))
    .check(
      z.describe(
        'What happened: `accepted` (the submission, or a provider on-ramp’s receipt, made the record); `ledger_landed` / `ledger_refused` (its ledger transaction); `provider_pending`, `provider_processing`, `provider_completed`, `provider_failed`, `provider_returned` (the provider’s report of a ramp’s instruction), `provider_rejected` (the provider refused it); `owed_paid` / `owed_refused` (a refund or an on-ramp’s credit the platform owes landed, or was refused and is paid again). null on a step read from a record written before its history was kept.',
      ),
    ),
  state: z
    .string()
    .check(z.describe('Where the record’s lifecycle stood after it (finer than status: see Lifecycles).')),
  status: z.string().check(z.describe('The record’s status after it.')),
  errorCode: z
    .nullable(z.string())
    .check(z.describe('The errorCode this step wrote, if it failed the record.')),
  ledgerTransaction: z
    .nullable(
      z.strictObject({
        hash: z.nullable(z.string()),
        ledger: z.nullable(z.number().check(z.int())).check(z.describe('The ledger it closed in.')),
        fee: z
          .nullable(z.number())
          .check(z.describe('The network fee it charged, in XLM (paid by the platform, not by the wallet).')),
      }),
    )
    .check(z.describe('The ledger transaction this step reports; null when it reports none.')),
});

export type TimelineStep = OnTheWire<z.infer<typeof timelineStep>>;

const xlmOf = (stroops: number | undefined) =>
  stroops === undefined ? null : exactNumber(new BigNumber(stroops).shiftedBy(-LEDGER_DECIMALS).toFixed());

/** The hash of the ledger transaction an event reports: an off-ramp's refund has its own. */
const hashOf = (record: TransactionRecord, entry: HistoryEntry) =>
  entry.e === 'owed_paid' && record.transactionType === 'offramp'
    ? (record.refundTxHash ?? null)
    : record.stellarTxHash;

const LEDGER_EVENTS = new Set(['ledger_landed', 'ledger_refused', 'owed_paid']);

/** The ledger transaction a step reports; none when it reports none, or one refused before it had a hash. */
function ledgerTransactionOf(
  record: TransactionRecord,
  entry: HistoryEntry,
): TimelineStep['ledgerTransaction'] {
  if (!LEDGER_EVENTS.has(entry.e)) return null;
  const hash = hashOf(record, entry);
  if (hash === null && entry.l === undefined) return null;
  return { hash, ledger: entry.l ?? null, fee: xlmOf(entry.f) };
}

export function timelineOf(record: TransactionRecord): TimelineStep[] {
  const lifecycle = lifecycleOf(record);
  const statusOf = (state: string) => String(lifecycle.states[state]?.status ?? record.status);
  const accepted: TimelineStep = {
    at: record.createdAt,
    event: 'accepted',
    state: lifecycle.initial,
    status: statusOf(lifecycle.initial),
    errorCode: null,
    ledgerTransaction: null,
  };
  if (record.history)
    return [
      accepted,
      ...record.history.map((entry) => ({
        at: new Date(entry.t).toISOString(),
        // Written by history.ts entryOf from an EventType; the record's type keeps it a string.
        event: entry.e as EventType,
        state: entry.s,
        status: statusOf(entry.s),
        errorCode: entry.c ?? null,
        ledgerTransaction: ledgerTransactionOf(record, entry),
      })),
    ];
  // Written before the history was kept: where it stands now, if it moved at all.
  const state = stateOf(record);
  if (state === lifecycle.initial && record.updatedAt === record.createdAt) return [accepted];
  return [
    accepted,
    {
      at: record.completedAt ?? record.updatedAt,
      event: null,
      state,
      status: record.status,
      errorCode: record.errorCode,
      ledgerTransaction: record.stellarTxHash
        ? { hash: record.stellarTxHash, ledger: null, fee: null }
        : null,
    },
  ];
}
