// Opening a wallet's ledger account, driven by the activation queue. Safe to repeat and to crash in:
// the ledger submission is keyed by the wallet (one account, one transaction, whatever happens), and
// only a wallet record that exists ever gets an account.
import { activateAccount } from '../ledger/operations.ts';
import { logger } from '../log.ts';
import type { ActivationMessage } from './activation-message.ts';
import { findWallet, recordActivation } from './repo.ts';

/** A message whose wallet record never appeared within this long belongs to a request that crashed. */
const ABANDONED_AFTER_MS = 5 * 60 * 1000;

export class ActivationNotFinished extends Error {
  override name = 'ActivationNotFinished';
}

export async function activateWallet(message: ActivationMessage, now: Date): Promise<void> {
  const tenant = { environment: message.environment, associationId: message.associationId };
  const record = await findWallet(tenant, message.walletId);
  if (!record) {
    if (now.getTime() - Date.parse(message.requestedAt) > ABANDONED_AFTER_MS) {
      logger.info('Activation abandoned: the wallet was never recorded', { walletId: message.walletId });
      return;
    }
    throw new ActivationNotFinished(`Wallet ${message.walletId} is not recorded yet`);
  }
  if (record.activationStatus !== 'pending') return;
  const outcome = await activateAccount({
    environment: record.environment,
    intentId: `wallet-activation:${record.walletId}`,
    account: { publicKey: record.publicKey, sealedSecret: record.sealedSecret },
    trustline: record.assetIssuer ? { code: record.assetCode, issuer: record.assetIssuer } : null,
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
