// The SQS queues and the workers they feed. Infra builds queues, DLQs and event sources from this,
// and the local stack creates the same queues and runs one poller per worker from it.
import { ledgerChannels } from './config.ts';

export interface QueueDefinition {
  /** Logical name; the physical queue is `${stage}-${name}` (and `${stage}-${name}-dlq`). */
  name: string;
  /** Worker function under functions/workers/, or null while the queue has no consumer yet. */
  worker: string | null;
  batchSize: number;
  visibilityTimeoutSeconds: number;
  /** Receives before a message is moved to the dead-letter queue. */
  maxReceiveCount: number;
  /**
   * Invocations at once (the event source's maximum concurrency; the local poller runs as many receive
   * loops): where a shared resource bounds useful parallelism, no more than it can use.
   */
  maxConcurrency: number;
  /**
   * Invocations one tenant's messages may hold at once (webhook lanes: lib/webhooks/tenant-share.ts), so
   * one tenant's slow receivers never take the lane from the others.
   */
  tenantShare?: number;
}

/**
 * The ledger-submitter's invocations at once: one per channel account (LEDGER_CHANNELS), since each holds
 * one while its payment lands; more would only wait for a free channel, fewer would leave channels idle.
 * At least 2, the least an SQS event source takes (its most, 1,000, bounds the pool: MAX_LEDGER_CHANNELS).
 */
export function submitterConcurrency(channels: number = ledgerChannels()): number {
  return Math.max(2, channels);
}

export const queues: QueueDefinition[] = [
  // Visibility 120 s gives the worker a 20 s budget (a sixth): its ledger rounds (6 s) and one last ledger
  // request (10 s). One a batch, so a slow activation never takes others down with it when it times out.
  {
    name: 'wallet-activations',
    worker: 'wallet-activator',
    batchSize: 1,
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 10,
    // Each activation holds a ledger channel account (LEDGER_CHANNELS) while it lands: a few at once
    // keep the channels for payments.
    maxConcurrency: 4,
  },
  // Accepted payments (from their records, through the outbox) and ledger submissions left pending by a
  // request, executed or resumed from their records by the ledger-submitter.
  {
    name: 'ledger-submissions',
    worker: 'ledger-submitter',
    // One a batch: each may take its ledger budget (6 s) and one last ledger request (10 s) of the
    // worker's 20 s (a sixth of the visibility timeout).
    batchSize: 1,
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 5,
    // Follows the pool, read when the stack or the local pollers ask (LEDGER_CHANNELS may be set late).
    get maxConcurrency() {
      return submitterConcurrency();
    },
  },
  // Beneficiary notices of completed records (through the outbox): one send each, 10 s at most for the
  // channel, so the worker's 15 s timeout (a sixth of 90) holds it; retries re-queue themselves with a
  // delay (lib/notifications/service.ts), and a notice that failed for good ends here in the DLQ.
  {
    name: 'payment-notifications',
    worker: 'payment-notifier',
    batchSize: 1,
    visibilityTimeoutSeconds: 90,
    maxReceiveCount: 5,
    // SES's default sending rate is 14 a second; a few invocations at once stay below it.
    maxConcurrency: 4,
  },
  // Webhook events from the table's stream (through the outbox), fanned out to deliveries.
  {
    name: 'webhook-events',
    worker: 'webhook-dispatcher',
    batchSize: 10,
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    maxConcurrency: 4,
  },
  // One attempt per message and per invocation, 10 s at most, so the worker's 15 s timeout (a sixth of
  // 90) holds it. A registration whose receiver is slow or down has its attempts forwarded to the slow
  // lane below (lib/webhooks/delivery.ts), so it never holds these invocations from other registrations.
  {
    name: 'webhook-deliveries',
    worker: 'webhook-deliverer',
    batchSize: 1,
    visibilityTimeoutSeconds: 90,
    maxReceiveCount: 5,
    maxConcurrency: 20,
    // A quarter of the lane per tenant: three tenants at their share still leave a quarter to the rest.
    tenantShare: 5,
  },
  // The slow lane: attempts to receivers that lately took longer than 2 s or did not answer.
  {
    name: 'webhook-slow-deliveries',
    worker: 'webhook-slow-deliverer',
    batchSize: 1,
    visibilityTimeoutSeconds: 90,
    maxReceiveCount: 5,
    maxConcurrency: 5,
    tenantShare: 2,
  },
];
