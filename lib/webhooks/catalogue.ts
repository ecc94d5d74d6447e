// The event catalogue: every type a registration can subscribe to, the producer named in its `source`,
// and what triggers it. Lifecycles map their states onto types by rule (`payment.<status>`), so a later
// status (refund_completed, the off-ramp's) is a new entry here and nothing in delivery changes.
export const EVENT_SOURCES = ['payments', 'wallets', 'payment-destinations', 'customers'] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];

export interface EventTypeDoc {
  source: EventSource;
  trigger: string;
}

export const eventCatalogue = {
  'payment.initiated': {
    source: 'payments',
    trigger:
      'A payment submission was accepted, or a provider on-ramp receipt arrived (type provider_onramp, metaData.data its payout summary): its transaction record exists, status initiated.',
  },
  'payment.completed': {
    source: 'payments',
    trigger: 'A transaction record moved to completed: the payment is in a closed ledger.',
  },
  'payment.processing': {
    source: 'payments',
    trigger:
      'An off-ramp’s ledger leg landed (stellarTxHash) and its payout is with the provider; the provider’s reference follows as externalReference.',
  },
  'payment.failed': {
    source: 'payments',
    trigger: 'A transaction record moved to failed (errorCode and failureReason say why).',
  },
  'payment.refund_completed': {
    source: 'payments',
    trigger:
      'An off-ramp failed or returned after its ledger leg was paid back to the wallet on the ledger (refundTxHash).',
  },
  'wallet.verified': { source: 'wallets', trigger: 'A wallet’s KYC review ended Verified.' },
  'wallet.rejected': { source: 'wallets', trigger: 'A wallet’s KYC review ended Rejected.' },
  'payment_destination.approved': {
    source: 'payment-destinations',
    trigger: 'A payment destination’s verification was decided APPROVED.',
  },
  'payment_destination.rejected': {
    source: 'payment-destinations',
    trigger: 'A payment destination’s verification was decided REJECTED.',
  },
  Customer_Verified: {
    source: 'customers',
    trigger:
      'A provider verified a customer registered through a bespoke connector (data: the registration, status VERIFIED).',
  },
  Customer_Rejected: {
    source: 'customers',
    trigger:
      'A provider rejected a customer registered through a bespoke connector (data: the registration, status REJECTED, reason).',
  },
} as const satisfies Record<string, EventTypeDoc>;

export type EventType = keyof typeof eventCatalogue;
export const eventTypes = Object.keys(eventCatalogue) as EventType[];

/**
 * Sent only when asked for (`POST /webhooks/{webhookId}/test`), to that one registration whatever its
 * events: not in the catalogue, so no registration subscribes to it.
 */
export const TEST_EVENT = 'webhook.test';

/** `*` subscribes to every type, present and future. */
export const ALL_EVENTS = '*';

export const isEventType = (name: string): name is EventType => Object.hasOwn(eventCatalogue, name);

/** Whether a registration subscribed to `events` receives `type`. */
export const subscribes = (events: readonly string[], type: string): boolean =>
  events.includes(ALL_EVENTS) || events.includes(type);
