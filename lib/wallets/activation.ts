// Opening a wallet's ledger account, driven by the activation queue, whose messages come from the
// wallet's own insert (the outbox, lib/outbox.ts). Safe to repeat and to crash in: the ledger submission
// is keyed by the wallet (one account, one transaction, whatever happens; the stream may deliver a
// message twice), and only a wallet record that exists ever gets an account.
//
// An opening that failed because the PLATFORM could not pay (the funding account short of lumens for the
// starting balance or the fee, as when one tenant drained the sandbox's) is not the wallet's failure: the
// wallet stays pending, its next opening gets an intent of its own (the failed one keeps its outcome, so
// nothing can land twice; a second createAccount of the same key could not succeed anyway), and it is
// asked for again after ACTIVATION_RETRY_DELAY_SECONDS, and again, until the funds are back (the sandbox's
// are topped up on a schedule, lib/ledger/sandbox-reserves.ts; the reconciler re-drives it too).
import { sendToQueue } from '../aws/queues.ts';
import { config } from '../config.ts';
import { activateAccount } from '../ledger/operations.ts';
import { logger } from '../log.ts';
import type { ActivationMessage } from './activation-message.ts';
import { findWallet, nextActivationRetry, recordActivation } from './repo.ts';

/** The ledger's codes for a source that cannot pay: in an opening, that source is the platform. */
const PLATFORM_SHORTFALL = new Set(['LEDGER_OP_UNDERFUNDED', 'LEDGER_TX_INSUFFICIENT_BALANCE']);
const ACTIVATION_QUEUE = 'wallet-activations';

/**
 * submitOnce starts no round after this: with one last ledger request (LEDGER_TIMEOUT_MS) the activator
 * ends inside its timeout (lib/queues.ts); an activation still in flight is retried from its intent.
 */
const ACTIVATION_BUDGET_MS = 6_000;

export class ActivationNotFinished extends Error {
  override name = 'ActivationNotFinished';
}

export async function activateWallet(message: ActivationMessage, now: Date): Promise<void> {
  const tenant = { environment: message.environment, associationId: message.associationId };
  // Consistent: the message follows the insert within milliseconds, sooner than an eventually consistent
  // read is sure to see it. The insert sent the message, so a wallet that is not there was never recorded
  // (a message of no outbox) and never will be: drop it, opening nothing.
  const record = await findWallet(tenant, message.walletId, { consistent: true });
  if (!record) {
    logger.warn('Activation dropped: no such wallet', { walletId: message.walletId });
    return;
  }
  if (record.activationStatus !== 'pending') return;
  const retries = record.activationRetries ?? 0;
  const outcome = await activateAccount({
    environment: record.environment,
    intentId: `wallet-activation:${record.walletId}${retries ? `:${retries}` : ''}`,
    account: { publicKey: record.publicKey, sealedSecret: record.sealedSecret },
    trustline: record.assetIssuer ? { code: record.assetCode, issuer: record.assetIssuer } : null,
    budgetMs: ACTIVATION_BUDGET_MS,
  });
  if (outcome.status === 'succeeded') {
    await recordActivation(tenant, record.walletId, { status: 'active' }, now);
  } else if (outcome.status === 'failed' && PLATFORM_SHORTFALL.has(outcome.errorCode)) {
    logger.error('Wallet activation waits for the platform funding account', {
      walletId: record.walletId,
      errorCode: outcome.errorCode,
      retries,
    });
    await nextActivationRetry(record, now);
    await sendToQueue(ACTIVATION_QUEUE, message, config().ACTIVATION_RETRY_DELAY_SECONDS);
  } else if (outcome.status === 'failed') {
    logger.warn('Wallet activation failed on the ledger', {
      walletId: record.walletId,
      errorCode: outcome.errorCode,
    });
    await recordActivation(
      tenant,
      record.walletId,
      { status: 'failed', errorCode: outcome.errorCode, failureReason: outcome.failureReason },
      now,
    );
  } else {
    throw new ActivationNotFinished(`Activation of ${record.walletId} is still in flight`);
  }
}
