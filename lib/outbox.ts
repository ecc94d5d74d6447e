// The record is the outbox: work that follows a write (open a wallet's account, and later pay, notify,
// report) is asked for by the write itself, never by a separate send beside it. The table's stream
// carries every change; functions/streams/outbox.ts (in AWS) and local/stream-poller.ts (locally) hand
// each one to `outboxMessages`, which turns it into the messages this table's rows ask for. A new kind of
// work is a new row here: delivery (retries, partial batches, the stream's filter) does not change.
//
// The stream delivers each change at least once, and a failed batch is retried from its first failure,
// so a message may be sent twice: every consumer must be idempotent (the wallet activator is: activation
// is keyed by the wallet, and an active wallet is left alone; so is the payment executor: the ledger
// submission is keyed by the record's intent, and a record that has moved is left alone).
// Types only, and the lifecycle tables (data): the router's bundle holds these rows and the SQS client,
// no domain code.
import type { PaymentDestinationRecord } from './beneficiaries/repo.ts';
import type { CustomerRecord } from './customers/repo.ts';
import type { NoticeMessage } from './notifications/message.ts';
import { isOwed } from './payments/lifecycle/records.ts';
import type { PaymentMessage } from './payments/message.ts';
import type { TransactionRecord } from './payments/repo.ts';
import type { ActivationMessage } from './wallets/activation-message.ts';
import type { WalletRecord } from './wallets/repo.ts';
import type { EventSource } from './webhooks/catalogue.ts';
import type { DeliveryMessage } from './webhooks/delivery-message.ts';
import { eventIdOf } from './webhooks/event-ids.ts';
import type { EventMessage } from './webhooks/event-message.ts';
import type { DeliveryRecord } from './webhooks/repo.ts';

/**
 * How the stream is read, in AWS (infra/stack.ts's event source) and locally (local/stream-poller.ts).
 * TRIM_HORIZON: a mapping that is created again (a replaced function, a changed source) starts from the
 * oldest record the stream keeps (24 hours) instead of the newest, so no write made in between loses its
 * work; what it reads again is sent again, which the consumers take.
 */
export const outboxStream = {
  startingPosition: 'TRIM_HORIZON',
  /** Records per invocation: each costs one SQS send (tens of ms) at most per row it matches. */
  batchSize: 25,
  /** Retries of a failing batch (bisected in AWS) before its description goes to the failure queue. */
  retryAttempts: 10,
  /** The router's timeout: a batch of sends, well inside it. */
  timeoutSeconds: 20,
} as const;

export type ChangeKind = 'INSERT' | 'MODIFY' | 'REMOVE';

/** One change of one item, its images unmarshalled (the table's attributes included: keys, `type`). */
export interface Change<I = Record<string, unknown>> {
  kind: ChangeKind;
  /** The item after the change (INSERT, MODIFY). */
  newImage?: I;
  /** The item before it (MODIFY, REMOVE). */
  oldImage?: I;
}

export interface OutboxRow<I> {
  /** The item's `type` attribute (lib/db/entity.ts): the stream's filter admits only these. */
  itemType: string;
  /** Whether this change asks for the work. */
  when(change: Change<I>): boolean;
  /** The queue (lib/queues.ts) the message goes to. */
  queue: string;
  message(change: Change<I>): unknown;
}

const row = <I>(definition: OutboxRow<I>): OutboxRow<I> => definition;

/**
 * A row that makes webhook events of an item type: `typeOf` names the event a change makes (null for
 * none). The event is the change as written; its id names the item and the type, so a change the
 * stream delivers twice makes one event (lib/webhooks/event-ids.ts).
 */
function eventRow<I extends { environment: string; associationId: string; updatedAt: string }>(definition: {
  itemType: string;
  source: EventSource;
  idOf: (item: I) => string;
  typeOf: (change: Change<I>) => string | null;
}): OutboxRow<I> {
  return row<I>({
    itemType: definition.itemType,
    when: (change) => definition.typeOf(change) !== null,
    queue: 'webhook-events',
    message: (change): EventMessage => {
      const item = change.newImage as I;
      const type = definition.typeOf(change) as string;
      return {
        eventId: eventIdOf(definition.itemType, item, definition.idOf(item), type),
        type,
        source: definition.source,
        createdAt: item.updatedAt,
        environment: item.environment as EventMessage['environment'],
        associationId: item.associationId,
        itemType: definition.itemType,
        item: item as unknown as Record<string, unknown>,
      };
    },
  });
}

/** The new value of `member` when a MODIFY changed it, else null. */
function changedTo<I, K extends keyof I>(change: Change<I>, member: K): I[K] | null {
  if (change.kind !== 'MODIFY' || !change.newImage || !change.oldImage) return null;
  const value = change.newImage[member];
  return value === change.oldImage[member] ? null : value;
}

/** A change of `member` to a value `announced` admits makes the event `<prefix>.<value in lower case>`. */
const statusEvent =
  <I>(member: keyof I, prefix: string, announced: (status: string) => boolean) =>
  (change: Change<I>): string | null => {
    const status = changedTo(change, member) as string | null;
    return status && announced(status) ? `${prefix}.${status.toLowerCase()}` : null;
  };

/** Which tenant's item and the members that name it: what every work message starts with. */
function itemNamed<I extends { environment: string; associationId: string }, K extends keyof I>(
  item: I,
  ...members: K[]
): Pick<I, 'environment' | 'associationId' | K> {
  const named = { environment: item.environment, associationId: item.associationId } as Pick<
    I,
    'environment' | 'associationId' | K
  >;
  for (const member of members) named[member] = item[member];
  return named;
}

/** The record's ledger work (lib/payments/execution.ts): which record; the record says what is next. */
const paymentMessageOf = ({ newImage }: Change<TransactionRecord>): PaymentMessage => {
  const record = newImage as TransactionRecord;
  return {
    kind: 'payment',
    ...itemNamed(record, 'transactionRecordId'),
    requestedAt: record.createdAt,
    ...(record.requestId ? { requestId: record.requestId } : {}),
  };
};

/** A delivery asks for an attempt when it is written pending, and again when a redelivery makes it pending. */
const deliveryMessageOf = ({ newImage }: Change<DeliveryRecord>): DeliveryMessage => {
  return itemNamed(newImage as DeliveryRecord, 'webhookId', 'deliveryId');
};

export const outboxRows: readonly OutboxRow<never>[] = [
  // A new wallet's ledger account: the record is written 'pending', and its insert asks for activation.
  row<WalletRecord>({
    itemType: 'wallet',
    when: ({ kind, newImage }) => kind === 'INSERT' && newImage?.activationStatus === 'pending',
    queue: 'wallet-activations',
    message: ({ newImage }): ActivationMessage => {
      const wallet = newImage as WalletRecord;
      return { ...itemNamed(wallet, 'walletId'), requestedAt: wallet.createdAt };
    },
  }),
  // An accepted payment: its record is written 'initiated', and its insert asks for the ledger work.
  row<TransactionRecord>({
    itemType: 'transaction',
    when: ({ kind, newImage }) => kind === 'INSERT' && newImage?.status === 'initiated',
    queue: 'ledger-submissions',
    message: paymentMessageOf,
  }),
  // A record that moved into a state where the platform owes money (an off-ramp's refund after its
  // payout failed or came back, an on-ramp's credit once its collection completed; lib/payments/lifecycle)
  // asks for that payment, on the same queue as the ledger work.
  row<TransactionRecord>({
    itemType: 'transaction',
    when: (change) =>
      change.kind === 'MODIFY' &&
      changedTo(change, 'state') !== null &&
      isOwed(change.newImage as TransactionRecord),
    queue: 'ledger-submissions',
    message: paymentMessageOf,
  }),
  // A record that asked to notify its beneficiary (notifyEmail / notifyWhatsApp): its change to completed
  // asks for the notice (lib/notifications/service.ts), sent once by the event's id.
  row<TransactionRecord>({
    itemType: 'transaction',
    when: (change) => changedTo(change, 'status') === 'completed' && Boolean(change.newImage?.notify),
    queue: 'payment-notifications',
    message: ({ newImage }): NoticeMessage => {
      const record = newImage as TransactionRecord;
      return {
        ...itemNamed(record, 'transactionRecordId'),
        eventId: eventIdOf('transaction', record, record.transactionRecordId, 'payment.completed'),
      };
    },
  }),
  // Webhook events: a transaction record's creation and every status change; KYC decisions; destination
  // verification decisions.
  eventRow<TransactionRecord>({
    itemType: 'transaction',
    source: 'payments',
    idOf: (record) => record.transactionRecordId,
    typeOf: (change) => {
      if (change.kind === 'INSERT') return `payment.${change.newImage?.status}`;
      const status = changedTo(change, 'status');
      return status ? `payment.${status}` : null;
    },
  }),
  eventRow<WalletRecord>({
    itemType: 'wallet',
    source: 'wallets',
    idOf: (wallet) => wallet.walletId,
    typeOf: statusEvent('status', 'wallet', (status) => status !== 'Pending'),
  }),
  eventRow<PaymentDestinationRecord>({
    itemType: 'paymentDestination',
    source: 'payment-destinations',
    idOf: (destination) => destination.destinationId,
    typeOf: statusEvent(
      'verificationStatus',
      'payment_destination',
      (status) => status === 'APPROVED' || status === 'REJECTED',
    ),
  }),
  // A provider's decision on a customer's review (written decided, or moved there from PENDING); each
  // review decides once, so the review's number is in the event's id.
  eventRow<CustomerRecord>({
    itemType: 'customer',
    source: 'customers',
    idOf: (customer) => `${customer.connectorId}/${customer.customerId}/${customer.review}`,
    typeOf: (change) => {
      const decided = change.kind === 'INSERT' ? change.newImage?.decidedAt : changedTo(change, 'decidedAt');
      if (!decided) return null;
      return change.newImage?.status === 'VERIFIED' ? 'Customer_Verified' : 'Customer_Rejected';
    },
  }),
  row<DeliveryRecord>({
    itemType: 'webhookDelivery',
    when: ({ kind, newImage, oldImage }) =>
      newImage?.status === 'pending' &&
      (kind === 'INSERT' || (kind === 'MODIFY' && oldImage?.status !== 'pending')),
    queue: 'webhook-deliveries',
    message: deliveryMessageOf,
  }),
];

/** The item types any row reads: the stream's filter (infra) invokes the router only for these. */
export const outboxItemTypes: readonly string[] = [...new Set(outboxRows.map((r) => r.itemType))];

/** The queues any row sends to: what the router may send to (infra/function-access.ts). */
export const outboxQueues: readonly string[] = [...new Set(outboxRows.map((r) => r.queue))];

/**
 * The item types whose owed work the outbox reconciler re-drives, by replaying their insert through
 * these rows (lib/outbox-reconciler.ts): they carry the pending index's keys while that work is owed.
 */
export const reconciledItemTypes: readonly string[] = ['transaction', 'wallet'];

/** The queues those types' rows send to: what the reconciler may send to (infra/function-access.ts). */
export const reconcilerQueues: readonly string[] = [
  ...new Set(outboxRows.filter((r) => reconciledItemTypes.includes(r.itemType)).map((r) => r.queue)),
];

/** The reconciler's line per re-driven record: infra's metric filter counts them, and its alarm pages. */
export const REDRIVEN_MESSAGE = 'Outbox reconciler: re-drove a stuck record';

export interface OutboxMessage {
  queue: string;
  message: unknown;
}

/**
 * What a log line says of the item a change wrote (the router's, the dispatcher's): the ids that follow its work across the
 * queues (a payment's record id and the request that created it), so one Logs Insights query finds them.
 */
export function logKeysOf(item: Record<string, unknown> = {}): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const name of ['transactionRecordId', 'requestId', 'walletId', 'webhookId', 'deliveryId'])
    if (typeof item[name] === 'string') keys[name] = item[name];
  return keys;
}

/**
 * The messages a record the reconciler found still pending asks for: its insert's, as the stream carried
 * it; a transaction record past `initiated` (a ramp waiting on its provider, money owed) asks its worker
 * for the next step of where it stands, and nothing else (its events were sent when it moved).
 */
export function redriveMessages(item: Record<string, unknown>): OutboxMessage[] {
  if (item.type === 'transaction' && item.status !== 'initiated')
    return [
      { queue: 'ledger-submissions', message: paymentMessageOf({ kind: 'MODIFY', newImage: item as never }) },
    ];
  return outboxMessages({ kind: 'INSERT', newImage: item });
}

/** The messages one change asks for, in row order (none for most changes). */
export function outboxMessages(change: Change): OutboxMessage[] {
  const itemType = (change.newImage ?? change.oldImage)?.type;
  return outboxRows
    .filter((r) => r.itemType === itemType && r.when(change as Change<never>))
    .map((r) => ({ queue: r.queue, message: r.message(change as Change<never>) }));
}
