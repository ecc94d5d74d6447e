// Transaction records (docs/decisions/transaction-records.md): tenant-owned, one per accepted submission
// (lib/db/keys.ts transactionKeys). The record is the outbox: its insert, `initiated`, is what asks for the
// ledger work (lib/outbox.ts), and every later move is conditional on the status the mover read, so a record
// never moves backwards and never completes twice.
import { absent, type Condition, holds } from '../db/conditions.ts';
import { entity, fromItem } from '../db/entity.ts';
import {
  type Changes,
  createIfAbsent,
  getItems,
  getRecord,
  getRecords,
  putAll,
  type TransactionWrite,
  transact,
  updateIf,
  type Written,
} from '../db/items.ts';
import { type ListIndex, pendingKeys, tenantOf, tenantScope, transactionKeys } from '../db/keys.ts';
import { listIndexName, type PageRequest, positionOn, queryPage, readsKeysOnly } from '../db/paginate.ts';
import type { Environment, Tenant } from '../tenant.ts';
import { changesOf, RAMP_UNSET, restoredOf, storedOf } from './stored-record.ts';

/**
 * P2P and swaps go initiated → completed | failed. Ramps pass through `processing` (the ledger leg has
 * landed, the provider has the instruction), and an off-ramp that fails or is returned after its
 * ledger leg is refunded: failed → refund_completed (lib/payments/ramps/execution.ts).
 */
export type TransactionStatus = 'initiated' | 'processing' | 'completed' | 'failed' | 'refund_completed';
export type TransactionType = 'p2p' | 'swap' | 'p2p_multi' | 'offramp' | 'onramp' | 'provider_onramp';
export type NotifyChannel = 'email' | 'whatsapp';

/** An asset as the registry had it at acceptance: the issuer is resolved once and kept. */
/**
 * What became of a completed record's notice (lib/notifications/service.ts): `sent` (handed to the
 * channel), `bounced` (the address bounced or complained after), `failed` (every retry failed), `skipped`
 * (not sent, `reason` says why: the address bounced before, or the channel is not configured).
 */
export interface NotificationOnRecord {
  channel: NotifyChannel;
  status: 'sent' | 'bounced' | 'failed' | 'skipped';
  sentAt: string | null;
  reason: string | null;
}

export interface AssetOnRecord {
  code: string;
  /** null for the native asset (XLM). */
  issuer: string | null;
}

/** One transfer of a multi-transfer record, in submitted order. */
export interface LegRecord {
  legIndex: number;
  walletId: string;
  walletPublicKey: string;
  destinationWalletId: string;
  destinationStellarAddress: string;
  sendingAsset: AssetOnRecord;
  /** Decimal string. */
  amount: string;
}

/** One move in a record's history (lifecycle/history.ts writes it, lib/payments/timeline.ts reads it). */
export interface HistoryEntry {
  /** When the move was written, epoch ms. */
  t: number;
  /** The state it moved to. */
  s: string;
  /** The event that moved it (an EventType of lifecycle/machine.ts; a string here, where the record is). */
  e: string;
  /** A ledger transaction the event reports: the ledger it closed in, and the fee it charged (stroops). */
  l?: number;
  f?: number;
  /** The errorCode the move wrote. */
  c?: string;
}

export interface TransactionRecord {
  transactionRecordId: string;
  environment: Environment;
  associationId: string;
  status: TransactionStatus;
  /**
   * Where the record is in its lifecycle (lib/payments/lifecycle): finer than `status`, which it
   * determines. Absent on records written before it was kept (lifecycle/records.ts reads theirs).
   */
  state?: string;
  /** +1 with every move (lifecycle/apply.ts): a move is conditioned on the version it read. */
  version?: number;
  /**
   * Every move since acceptance, oldest first (lifecycle/history.ts), appended by the move's own write.
   * Absent on records written before it was kept, and on a record that has not moved yet.
   */
  history?: HistoryEntry[];
  /**
   * Owed payments (a refund, an on-ramp's credit): the attempt being paid, 1 first. A refused attempt's
   * intent is final on the ledger (lib/ledger/submit.ts); the next attempt is a fresh intent.
   */
  owedAttempt?: number;
  /** When the record entered a state where money is owed; `owedRefusal`: why the last attempt was refused. */
  owedSince?: string;
  owedRefusal?: string;
  /** `type` on the wire; the item's own `type` attribute is its entity type (lib/db/entity.ts). */
  transactionType: TransactionType;
  /** The route's operation (lib/routes.ts): with `requestFingerprint`, what a replay must match. */
  operation: string;
  /** sha256 of the canonical request (lib/ledger/purpose.ts): a replay with another body is a 409. */
  requestFingerprint: string;
  /** The caller's transactionId. */
  idempotencyKey: string;
  /**
   * The X-Request-Id of the request that created it: its outbox messages and the workers' log lines
   * carry it beside the record's id (absent on records written before it was kept).
   */
  requestId?: string;
  intentId: string;
  /** Decimal strings, never floats (design convention 8); numbers only on the wire. */
  sendAmount: string;
  originalSendAmount: string;
  /** What the ledger delivered, and at which rate: set when the record completes, null before and on failure. */
  receiveAmount: string | null;
  exchangeRate: string | null;
  fee: string;
  sendingAsset: AssetOnRecord;
  receivingAsset: AssetOnRecord;
  /** Swaps: the fraction below the path's quoted amount the conversion may deliver (destMin). */
  slippage: string | null;
  /**
   * Swaps: the least the destination receives, from the best path's price at acceptance less the
   * slippage; the swap fails rather than deliver less, however long it waited to execute. Absent on
   * records accepted before it existed (their bound is the price at execution).
   */
  minReceiveAmount?: string | null;
  walletId: string | null;
  walletPublicKey: string | null;
  destinationWalletId: string | null;
  destinationStellarAddress: string | null;
  beneficiaryId: string | null;
  beneficiaryFirstName: string | null;
  beneficiaryLastName: string | null;
  paymentDestinationId: string | null;
  fromRef: string | null;
  toRef: string | null;
  memo: string | null;
  /** Who to tell once it completes (beneficiary routes), and where; `notification` says what was sent. */
  notify: { channel: NotifyChannel; to: string } | null;
  notification?: NotificationOnRecord;
  legs: LegRecord[] | null;
  /** Every wallet the record touches (sources and own destinations): the `walletId` filter. */
  walletIds: string[];
  stellarTxHash: string | null;
  /** Ramps only (absent on every other record): the connector, its quote and the provider's side. */
  ramp?: RampOnRecord;
  /** Provider on-ramps: the receipt and its payout summary (the events' metaData.data). */
  receipt?: ReceiptOnRecord;
  /** Ramps: the provider's reference, once it has the instruction (top-level: set apart from status moves). */
  externalReference?: string | null;
  /** Ramps: the provider's last reported state of the instruction. */
  providerStatus?: string | null;
  /**
   * Off-ramps failed after their ledger leg landed (the provider failed, refused or returned the payout):
   * the wallet is owed `originalSendAmount` back. A ledger leg that itself failed owes nothing.
   */
  refundDue?: boolean;
  /** Off-ramp refunds: the ledger transaction that paid the wallet back. */
  refundTxHash?: string | null;
  errorCode: string | null;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

/** What an off-ramp or on-ramp record carries beyond a payment's members. */
export interface RampOnRecord {
  connectorId: string;
  connectorName: string;
  /** The connector's method: BANK, MOMO, CASH. */
  method: string;
  destinationCountryIso: string;
  /** null on provider on-ramps: a receipt is priced when it arrives, not quoted. */
  quoteId: string | null;
  /** The quote's rate: fiat per asset unit. */
  rate: string;
  /** Fiat: what the beneficiary receives (off-ramp) or the counterparty pays (on-ramp). */
  fiatAmount: string;
  fiatCurrency: string;
  /** The instruction's details as the provider needs them (names, destination). */
  beneficiary: Record<string, unknown>;
  destination: Record<string, unknown>;
}

/** A provider on-ramp's receipt: where it arrived and what it paid out (decimal strings). */
export interface ReceiptOnRecord {
  receiptId: string;
  reference: string;
  customerId: string;
  netAmount: string;
  totalFees: string;
  feeCurrency: string;
  assetCode: string;
}

export const transactionEntity = entity<TransactionRecord>({
  type: 'transaction',
  keyOf: (record) => transactionKeys.record(tenantOf(record), record.transactionRecordId),
  indexKeysOf: (record) => ({
    // Sparse: gsi1 ordered a tenant's records by creation until list4 did; a stage still reading the
    // projected list indexes reads it (lib/db/table.ts), so its records keep writing it until then.
    ...(readsKeysOnly()
      ? {}
      : transactionKeys.byCreation(tenantOf(record), record.createdAt, record.transactionRecordId)),
    ...transactionKeys.listKeys(tenantOf(record), record),
    // Until a worker moves it on, the reconciler finds it if it waits too long (lib/outbox-reconciler.ts).
    ...(record.status === 'initiated'
      ? pendingKeys.of(record.environment, 'transaction', record.createdAt)
      : {}),
  }),
  // Not written: what the rest of the record implies (stored-record.ts).
  storedOf: (record) => storedOf(record as unknown as Record<string, unknown>),
  restoredOf,
});

/** The members of R that may hold null. */
type NullableMembers<R> = { [K in keyof R]-?: null extends R[K] ? K : never }[keyof R];

// Every member that may hold null is one whose null the item leaves out: a member added to the record
// without its entry there fails to type-check here.
RAMP_UNSET satisfies Record<NullableMembers<TransactionRecord>, null>;

/** A transaction item (a read, a write's answer, a stream image) as its record: the members it does not hold filled in. */
export const transactionOf = (item: object): TransactionRecord =>
  fromItem(transactionEntity, item as Record<string, unknown>);

const writtenOf = (written: Written<object>): Written<TransactionRecord> => {
  if (written.outcome === 'written') return { outcome: 'written', record: transactionOf(written.record) };
  if (written.outcome === 'conditionFailed')
    return { outcome: 'conditionFailed', current: transactionOf(written.current) };
  return written;
};

/**
 * Changes `record` (as it was read) if `condition` holds: the record after, or what holds it back. A member
 * set to what the record then implies (a null, a payment's state) is removed: its put would not write it.
 */
export async function updateTransaction(
  tenant: Tenant,
  record: TransactionRecord,
  changes: Changes,
  condition: Condition,
): Promise<Written<TransactionRecord>> {
  const { set, remove } = changesOf(record as unknown as Record<string, unknown>, changes.set ?? {});
  return writtenOf(
    await updateIf<object>(
      transactionKeys.record(tenant, record.transactionRecordId),
      { ...changes, set, ...(remove.length ? { remove: [...(changes.remove ?? []), ...remove] } : {}) },
      condition,
    ),
  );
}

/** A wallet's entry for a record it takes part in: what the walletId filter reads (lib/db/keys.ts). */
export type TransactionWalletEntry = Pick<
  TransactionRecord,
  'environment' | 'associationId' | 'transactionRecordId' | 'transactionType' | 'createdAt'
> & { walletId: string };

export const transactionWalletEntity = entity<TransactionWalletEntry>({
  type: 'transactionWallet',
  keyOf: (entry) =>
    transactionKeys.walletEntry(tenantOf(entry), entry.walletId, entry.createdAt, entry.transactionRecordId),
});

export const walletEntriesOf = (record: TransactionRecord): TransactionWalletEntry[] =>
  record.walletIds.map((walletId) => ({
    environment: record.environment,
    associationId: record.associationId,
    transactionRecordId: record.transactionRecordId,
    transactionType: record.transactionType,
    createdAt: record.createdAt,
    walletId,
  }));

/**
 * Writes the record unless its id (its transactionId) has one: then the record that holds it. Its wallet
 * entries go first, so a listed record is always found by each of its wallets; an entry whose record
 * was never written, or was written by a concurrent replay at another instant, finds no record of its
 * creation and is skipped by the list.
 */
export async function putTransaction(record: TransactionRecord): Promise<Written<TransactionRecord>> {
  await putAll(transactionWalletEntity, walletEntriesOf(record));
  return writtenOf(await createIfAbsent(transactionEntity, record));
}

/** Writes a new record (its wallet entries first, as putTransaction) with `alongside`, both or neither. */
export async function putTransactionWith(
  record: TransactionRecord,
  alongside: TransactionWrite,
): Promise<boolean> {
  await putAll(transactionWalletEntity, walletEntriesOf(record));
  const written = await transact([
    { put: { entity: transactionEntity as never, record, condition: absent } },
    alongside,
  ]);
  return written.outcome === 'written';
}

export async function findTransaction(
  tenant: Tenant,
  transactionRecordId: string,
  options: { consistent?: boolean } = {},
): Promise<TransactionRecord | undefined> {
  const item = await getRecord<object>(transactionKeys.record(tenant, transactionRecordId), options);
  return item && transactionOf(item);
}

/** The tenant's records among `ids` (missing ones left out), eventually consistent. */
export const findTransactions = async (tenant: Tenant, transactionRecordIds: string[]) =>
  (await getRecords<object>(transactionRecordIds.map((id) => transactionKeys.record(tenant, id)))).map(
    transactionOf,
  );

export type Settlement =
  | {
      status: 'completed';
      stellarTxHash: string;
      receiveAmount: string;
      exchangeRate: string;
    }
  | { status: 'failed'; stellarTxHash: string | null; errorCode: string; failureReason: string };

/**
 * Records what became of a completed record's notice. Not a move: its state is the lifecycle's alone
 * (lib/payments/lifecycle), and this writes only the notice, while the record is completed.
 */
export const noteNotification = (
  tenant: Tenant,
  record: TransactionRecord,
  notification: NotificationOnRecord,
  now: Date,
): Promise<Written<TransactionRecord>> =>
  updateTransaction(
    tenant,
    record,
    { set: { notification, updatedAt: now.toISOString() } },
    holds({ status: 'completed' }),
  );

/** A status or type may be one the contract names and no record holds yet (schema.ts): none is found. */
export interface TransactionFilters {
  status?: string | undefined;
  type?: string | undefined;
  walletId?: string | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
}

/**
 * Newest first, every filter read by a key condition (lib/db/keys.ts): a wallet's entries (the type
 * filtered on them, the status on the records they name), a status and type, a status, a type, or
 * the creation index; the created range bounds the sort key of each.
 */
export function listTransactionPage(
  tenant: Tenant,
  filters: TransactionFilters,
  page: Omit<PageRequest, 'binding'>,
) {
  const { status, type, walletId } = filters;
  // ISO timestamps sort as text; '0' sorts before every timestamp (a key's value cannot be empty), '~'
  // after every character a timestamp or an id holds.
  const range = (prefix: string) => ({
    ':from': `${prefix}${filters.createdFrom ? new Date(filters.createdFrom).toISOString() : '0'}`,
    ':to': `${prefix}${filters.createdTo ? new Date(filters.createdTo).toISOString() : '~'}`,
  });
  const read = (pk: [string, string], sk: [string, string], index?: ListIndex | 'gsi1') => ({
    ...(index ? { IndexName: index === 'gsi1' ? index : listIndexName(index) } : {}),
    // [from, to): BETWEEN is inclusive, and `to` itself sorts before every key created at that instant.
    KeyConditionExpression: `${pk[0]} = :pk AND ${sk[0]} BETWEEN :from AND :to`,
    ScanIndexForward: false,
    ExpressionAttributeValues: { ':pk': pk[1], ...range(sk[1]) },
  });
  const scope = tenantScope(tenant);
  const binding = { scope, query: `transactions?${JSON.stringify(filters)}` };
  const toRecord = transactionOf;
  if (walletId)
    return queryPage(
      {
        ...read(['pk', scope], ['sk', transactionKeys.walletEntryPrefix(walletId)]),
        filters: { equals: { transactionType: type } },
      },
      { ...page, binding },
      positionOn(),
      toRecord,
      {
        records: (entries) =>
          getItems(entries.map((entry) => transactionKeys.record(tenant, String(entry.transactionRecordId)))),
        accept: (entry, record) =>
          record.createdAt === entry.createdAt && (status === undefined || record.status === status),
      },
    );
  const [index, pk, prefix] = ((): [ListIndex | 'gsi1', string, string] => {
    if (status && type) return ['list3', transactionKeys.byStatus(tenant, status), `${type}#`];
    if (status) return ['list1', transactionKeys.byStatus(tenant, status), ''];
    if (type) return ['list2', transactionKeys.byType(tenant, type), ''];
    if (readsKeysOnly()) return ['list4', transactionKeys.byCreationList(tenant), ''];
    return ['gsi1', scope, transactionKeys.creationPrefix];
  })();
  return queryPage(
    {
      ...read([`${index}pk`, pk], [`${index}sk`, prefix], index),
      recordKeyOf: (entry) => ({ pk: scope, sk: String(entry.sk) }),
    },
    // A cursor of the creation order read on gsi1 holds gsi1's keys: it is not one of list4's.
    { ...page, binding: index === 'list4' ? { ...binding, query: `${binding.query}#list4` } : binding },
    positionOn(index),
    toRecord,
  );
}

export { tenantOf };
