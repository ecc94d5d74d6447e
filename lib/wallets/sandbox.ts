// Sandbox test helpers (Stripe-style): settle a KYC review or a destination's verification, and pay a
// wallet from the asset's issuer. Each refuses production tenants as an unknown route would.
import { randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import type { Asset } from '../assets/schema.ts';
import { findRegistryAsset } from '../assets/service.ts';
import { sendToQueue } from '../aws/queues.ts';
import { decideDestinationVerification } from '../beneficiaries/verification.ts';
import { IDEMPOTENCY_KEY_HEADER } from '../http/idempotency-key.ts';
import { notFound, Problem, serviceUnavailable, unprocessable } from '../http/problem.ts';
import { IntentConflict } from '../ledger/errors.ts';
import { pay } from '../ledger/operations.ts';
import { openTrustline } from '../ledger/payments.ts';
import { PlatformAccountMissingError, platformAccount } from '../ledger/platform-accounts.ts';
import { purposeOf } from '../ledger/purpose.ts';
import type { SubmissionOutcome } from '../ledger/submit.ts';
import { logger } from '../log.ts';
import type { Tenant } from '../tenant.ts';
import { FUNDING_RESUME_KIND, type FundingResumeMessage } from './funding-message.ts';
import { findWallet, type WalletRecord } from './repo.ts';
import { countSandboxMoney } from './sandbox-limits.ts';
import { decideKyc } from './service.ts';

/**
 * A wallet the API has returned should be usable at once: funding waits this long for the activation
 * worker to open its ledger account (normally well under a second) rather than answering 409.
 * The sandbox function's timeout (infra/stack.ts) leaves room for this wait and the ledger payment.
 */
const ACTIVATION_WAIT_MS = 5_000;
const ACTIVATION_POLL_MS = 100;
/**
 * submitOnce starts no round after this (its budgetMs): with the activation wait and one last ledger
 * request (LEDGER_TIMEOUT_MS) the request ends inside the function's timeout, answering 202 pending.
 */
const PAYMENT_BUDGET_MS = 4_000;
const LEDGER_SUBMISSION_QUEUE = 'ledger-submissions';
/** About one ledger close: a resumption sooner would most likely find it still pending. */
const RESUME_DELAY_SECONDS = 5;

/** Test helpers do not exist for production applications: they answer as unknown routes do. */
export function assertSandbox(tenant: Tenant): void {
  if (tenant.environment !== 'sandbox') throw notFound('No such route.');
}

/** The KYC decision a platform operator would take, settled by the tester. */
export function settleKyc(tenant: Tenant, walletId: string, decision: 'Verified' | 'Rejected', now: Date) {
  assertSandbox(tenant);
  return decideKyc(tenant, walletId, decision, now);
}

/** The verification decision on one of the tenant's BANK or MOBILE_MONEY destinations. */
export function settleDestinationVerification(
  tenant: Tenant,
  destinationId: string,
  decision: 'APPROVED' | 'REJECTED',
  now: Date,
) {
  assertSandbox(tenant);
  return decideDestinationVerification(tenant, destinationId, decision, now);
}

/** What funding answers: `succeeded` once the payment is in a closed ledger, `pending` until then. */
export type SandboxFunding = { walletId: string; assetCode: string; amount: number } & (
  | { status: 'succeeded'; stellarTxHash: string | null }
  | { status: 'pending'; stellarTxHash: null }
);

/**
 * The funding's ledger intent. With an Idempotency-Key it is the key itself, in the tenant's scope (the
 * same key in another tenant is another intent), so a retry finds the first request's submission and
 * resumes it; without one, every request is a new intent (a retry may fund twice, as with Stripe).
 */
const fundingIntentId = (tenant: Tenant, idempotencyKey: string | undefined) =>
  idempotencyKey === undefined
    ? `sandbox-fund:${randomUUID()}`
    : `sandbox-fund:${tenant.environment}:${tenant.associationId}:${idempotencyKey}`;

export async function fundWallet(
  tenant: Tenant,
  walletId: string,
  input: { assetCode: string; amount: number },
  idempotencyKey: string | undefined,
): Promise<SandboxFunding> {
  assertSandbox(tenant);
  // Strongly consistent: the wallet may have been created a moment ago.
  const found = await findWallet(tenant, walletId, { consistent: true });
  if (!found) throw notFound(`No wallet ${walletId}.`);
  // The schema (amountField) has checked it: positive, at most 7 decimals, within int64 stroops.
  const amount = new BigNumber(input.amount);
  const asset = await findRegistryAsset(tenant.environment, input.assetCode);
  if (!asset) {
    throw unprocessable('Unknown asset.', [
      { field: 'assetCode', message: `${input.assetCode} is not in the asset registry` },
    ]);
  }
  await countSandboxMoney(tenant, 'fund', amount, asset.assetCode, idempotencyKey, new Date());
  const wallet = await activeWallet(tenant, found);
  const request = { walletId, assetCode: asset.assetCode, amount: amount.toFixed() };
  const intentId = fundingIntentId(tenant, idempotencyKey);
  const started = Date.now();
  await trustedBy(tenant, wallet, asset, intentId);
  const budgetMs = Math.max(PAYMENT_BUDGET_MS - (Date.now() - started), 0);
  const outcome = await payFunding(tenant, wallet, asset, request, intentId, budgetMs).catch(
    (error: unknown) => {
      // A stage whose sandbox assets were never opened (`admin ledger sandbox-assets`): nothing was sent.
      if (error instanceof PlatformAccountMissingError) {
        logger.error('Sandbox funding without its platform account', { error: error.message });
        throw serviceUnavailable(`The sandbox cannot issue ${asset.assetCode} yet; nothing was sent.`);
      }
      if (!(error instanceof IntentConflict)) throw error;
      throw new Problem(409, `This ${IDEMPOTENCY_KEY_HEADER} was used with another funding request.`, {
        errors: [{ field: IDEMPOTENCY_KEY_HEADER, message: 'was used with another request' }],
      });
    },
  );
  if (outcome.status === 'failed') {
    throw unprocessable(outcome.failureReason, [{ field: 'assetCode', message: outcome.errorCode }]);
  }
  const funding = { walletId, assetCode: asset.assetCode, amount: amount.toNumber() };
  if (outcome.status === 'succeeded') return { ...funding, status: 'succeeded', stellarTxHash: outcome.hash };
  // No envelope was persisted (the ledger could not even be read to build one), so nothing can land:
  // not pending, just not done.
  if (outcome.attempt === 0) {
    throw serviceUnavailable(
      outcome.errorCode === 'LEDGER_CHANNELS_BUSY'
        ? 'Every ledger channel is busy; nothing was sent. Retry shortly.'
        : 'The ledger could not be reached; nothing was sent.',
    );
  }
  await queueResume(tenant, request, intentId);
  return { ...funding, status: 'pending', stellarTxHash: null };
}

interface FundingRequest {
  walletId: string;
  /** The registry's code. */
  assetCode: string;
  /** A decimal string, at most 7 places. */
  amount: string;
}

/**
 * An own wallet that does not trust the asset yet gets its trustline first, as a payment into it would
 * (openTrustline: the one intent all of them share, its reserve topped up by the funding account). A
 * third party's wallet is left as it is: funding it an asset it does not trust is refused (422).
 * The opening takes at most half of the payment's budget; still under way, nothing was sent (503).
 */
async function trustedBy(
  tenant: Tenant,
  wallet: WalletRecord,
  asset: Asset,
  intentId: string,
): Promise<void> {
  if (!wallet.ownAccount || !asset.assetIssuer) return;
  const opening = await openTrustline({
    environment: tenant.environment,
    intentId,
    wallet,
    asset: { code: asset.assetCode, issuer: asset.assetIssuer },
    budgetMs: PAYMENT_BUDGET_MS / 2,
  });
  if (!opening) return;
  if (opening.status === 'failed')
    throw unprocessable(opening.failureReason, [{ field: 'assetCode', message: opening.errorCode }]);
  throw serviceUnavailable(
    `The wallet's ${asset.assetCode} trustline is being opened; nothing was sent. Retry shortly.`,
  );
}

/** The funding payment from the asset's issuer (XLM: the funding account), one intent per request. */
async function payFunding(
  tenant: Tenant,
  wallet: WalletRecord,
  asset: Asset,
  request: FundingRequest,
  intentId: string,
  budgetMs = PAYMENT_BUDGET_MS,
): Promise<SubmissionOutcome> {
  const source = await platformAccount(
    tenant.environment,
    asset.assetIssuer ? `issuer:${asset.assetCode}` : 'funding',
  );
  return pay({
    environment: tenant.environment,
    intentId,
    // The same key sent with another request is told apart from a retry of this one.
    purpose: purposeOf({ ...request }),
    from: source,
    to: wallet.publicKey,
    asset: asset.assetIssuer ? { code: asset.assetCode, issuer: asset.assetIssuer } : 'native',
    amount: request.amount,
    budgetMs,
  });
}

/**
 * Hands a pending payment to the ledger-submissions queue, so it settles without the client's retry.
 * The request has answered 202 either way: when the queue cannot be reached, a retry with the same
 * Idempotency-Key still resumes it (logged as an error: without a key nothing else will).
 */
async function queueResume(tenant: Tenant, request: FundingRequest, intentId: string): Promise<void> {
  assertSandbox(tenant);
  const message: FundingResumeMessage = {
    kind: FUNDING_RESUME_KIND,
    environment: 'sandbox',
    associationId: tenant.associationId,
    intentId,
    ...request,
    requestedAt: new Date().toISOString(),
  };
  await sendToQueue(LEDGER_SUBMISSION_QUEUE, message, RESUME_DELAY_SECONDS).catch((error: unknown) =>
    logger.error('A pending funding payment could not be queued for resumption', {
      intentId,
      error: (error as Error).message,
    }),
  );
}

/** Thrown when a resumed payment is still pending: the worker fails the message, and SQS redelivers it. */
export class FundingStillPending extends Error {
  override name = 'FundingStillPending';
}

/**
 * Resumes a funding payment from its queued message (the ledger-submissions worker): the same intent,
 * the same request, so it settles what the request began and never pays twice. Still pending → throws
 * FundingStillPending; settled (succeeded or failed) → done.
 */
export async function resumeFunding(message: FundingResumeMessage): Promise<SubmissionOutcome> {
  const tenant: Tenant = { environment: message.environment, associationId: message.associationId };
  const wallet = await findWallet(tenant, message.walletId, { consistent: true });
  const asset = await findRegistryAsset(tenant.environment, message.assetCode);
  // Neither can vanish once a payment was built for them: a platform fault, retried and then alarmed.
  if (!wallet || !asset) throw new Error(`Funding ${message.intentId} names an unknown wallet or asset`);
  const { walletId, assetCode, amount } = message;
  const outcome = await payFunding(tenant, wallet, asset, { walletId, assetCode, amount }, message.intentId);
  if (outcome.status === 'pending') {
    throw new FundingStillPending(`Funding ${message.intentId} is still pending (${outcome.errorCode})`);
  }
  logger.info(`Sandbox funding ${outcome.status}`, { intentId: message.intentId, hash: outcome.hash });
  return outcome;
}

/**
 * The wallet once its ledger account is open: re-read (strongly consistent: the activation worker
 * is the writer) every ACTIVATION_POLL_MS for at most ACTIVATION_WAIT_MS. 409 when activation
 * failed, or is still under way at the end of the wait.
 */
async function activeWallet(tenant: Tenant, found: WalletRecord): Promise<WalletRecord> {
  const deadline = Date.now() + ACTIVATION_WAIT_MS;
  let wallet: WalletRecord | undefined = found;
  for (;;) {
    if (!wallet) throw notFound(`No wallet ${found.walletId}.`);
    if (wallet.activationStatus === 'active') return wallet;
    if (wallet.activationStatus === 'failed') {
      throw new Problem(
        409,
        `The wallet's ledger account could not be opened (${wallet.activationFailureReason ?? wallet.activationErrorCode}); it cannot be funded.`,
      );
    }
    if (Date.now() >= deadline) {
      throw new Problem(
        409,
        `The wallet's ledger account is still being opened after ${ACTIVATION_WAIT_MS / 1000} s; try again shortly.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, ACTIVATION_POLL_MS));
    wallet = await findWallet(tenant, found.walletId, { consistent: true });
  }
}
