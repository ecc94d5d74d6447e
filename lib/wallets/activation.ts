// Opening a wallet's ledger account, driven by the activation queue, whose messages come from the
// wallet's own insert (the outbox, lib/outbox.ts). Safe to repeat and to crash in: the ledger submission
// is keyed by the wallet (one account, one transaction, whatever happens; the stream may deliver a
// message twice), and only a wallet record that exists ever gets an account.
import { activateAccount } from '../ledger/operations.ts';
import { logger } from '../log.ts';
import type { ActivationMessage } from './activation-message.ts';
import { findWallet, recordActivation } from './repo.ts';

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
  const outcome = await activateAccount({
    environment: record.environment,
    intentId: `wallet-activation:${record.walletId}`,
    account: { publicKey: record.publicKey, sealedSecret: record.sealedSecret },
    trustline: record.assetIssuer ? { code: record.assetCode, issuer: record.assetIssuer } : null,
    budgetMs: ACTIVATION_BUDGET_MS,
  });
  if (outcome.status === 'succeeded') {
    await recordActivation(tenant, record.walletId, { status: 'active' }, now);
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
