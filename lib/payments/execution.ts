// Executing an accepted payment (the ledger-submissions worker): one ledger transaction per record,
// built, signed by the wallets, fee-bumped by the platform and submitted at most once (submitOnce, keyed
// by the record's intent), then the record moved from `initiated` to where the ledger left it.
//
// Safe to repeat and to crash in: a redelivered message finds the submission record and settles from its
// stored hash without building anything new; a record that already moved is left alone. While the
// ledger has not settled the payment (slow, unreachable, every channel busy, a wallet's account still
// being opened), the message is put back on the queue with a growing delay rather than left to the
// visibility timeout, so a payment settles seconds after the ledger returns; after MAX_REQUEUES it
// fails its message instead, and the queue's redrive policy takes over (retries, then the alarmed DLQ).
import BigNumber from 'bignumber.js';
import { sendToQueue } from '../aws/queues.ts';
import { LedgerInputError, LedgerUnavailableError } from '../ledger/errors.ts';
import type { CustodialAccount, LedgerAssetRef } from '../ledger/operations.ts';
import { executePayment, type PaymentLeg, pathPaymentReceipts } from '../ledger/payments.ts';
import { logger } from '../log.ts';
import type { Tenant } from '../tenant.ts';
import { annotate } from '../trace.ts';
import { findSigningWallets, type SigningWallet } from '../wallets/signing-wallets.ts';
import { applyEvent } from './lifecycle/apply.ts';
import { type LedgerFacts, ledgerFactsOf } from './lifecycle/history.ts';
import type { PaymentMessage } from './message.ts';
import { advanceRamp as advanceRampStep } from './ramps/execution.ts';
import { type AssetOnRecord, findTransaction, type Settlement, type TransactionRecord } from './repo.ts';

const LEDGER_SUBMISSION_QUEUE = 'ledger-submissions';
/** A new wallet's account opens in well under a second; longer, and the message comes back later. */
const ACTIVATION_WAIT_MS = 3_000;
const ACTIVATION_POLL_MS = 100;
/**
 * submitOnce starts no round after this: with one last ledger request (LEDGER_TIMEOUT_MS) the worker ends
 * inside its timeout (lib/queues.ts), and a payment still in flight is re-queued.
 */
const PAYMENT_BUDGET_MS = 6_000;
/** Re-queues of one message: 2, 4, 8 … s, then every 15 min (SQS's longest delay): about 2.8 hours. */
export const MAX_REQUEUES = 20;
const requeueDelaySeconds = (attempt: number) => Math.min(2 ** attempt, 900);

export class PaymentNotSettled extends Error {
  override name = 'PaymentNotSettled';
}

type Readiness = { wallets: Map<string, SigningWallet> } | { pending: string } | { failed: Settlement };

const custodial = (wallet: SigningWallet): CustodialAccount => ({
  publicKey: wallet.publicKey,
  sealedSecret: wallet.sealedSecret,
});

const ledgerAsset = (asset: AssetOnRecord): LedgerAssetRef | 'native' =>
  asset.issuer === null ? 'native' : { code: asset.code, issuer: asset.issuer };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every wallet of the record with its ledger account open, waiting a moment for one being opened. */
async function walletsReady(tenant: Tenant, record: TransactionRecord): Promise<Readiness> {
  const deadline = Date.now() + ACTIVATION_WAIT_MS;
  for (;;) {
    const wallets = new Map<string, SigningWallet>();
    const found = new Map((await findSigningWallets(tenant, record.walletIds)).map((w) => [w.walletId, w]));
    let opening: string | undefined;
    for (const walletId of record.walletIds) {
      const wallet = found.get(walletId);
      // A wallet is never deleted: a record naming a missing one is a platform fault, retried and alarmed.
      if (!wallet)
        throw new Error(`Transaction ${record.transactionRecordId} names a missing wallet ${walletId}`);
      if (wallet.activationStatus === 'failed')
        return {
          failed: {
            status: 'failed',
            stellarTxHash: null,
            errorCode: 'WALLET_NOT_ACTIVE',
            failureReason: `Wallet ${walletId}'s ledger account could not be opened.`,
          },
        };
      if (wallet.activationStatus === 'pending') opening = walletId;
      wallets.set(walletId, wallet);
    }
    if (!opening) return { wallets };
    if (Date.now() >= deadline) return { pending: `wallet ${opening} is still being opened` };
    await pause(ACTIVATION_POLL_MS);
  }
}

function legsOf(record: TransactionRecord, wallets: Map<string, SigningWallet>): PaymentLeg[] {
  const wallet = (walletId: string | null) => {
    const found = walletId ? wallets.get(walletId) : undefined;
    if (!found) throw new Error(`Transaction ${record.transactionRecordId} lacks wallet ${walletId}`);
    return found;
  };
  if (record.legs)
    return record.legs.map((leg) => ({
      from: custodial(wallet(leg.walletId)),
      to: leg.destinationStellarAddress,
      custodialDestination: custodial(wallet(leg.destinationWalletId)),
      sendAsset: ledgerAsset(leg.sendingAsset),
      amount: leg.amount,
    }));
  return [
    {
      from: custodial(wallet(record.walletId)),
      to: record.destinationStellarAddress ?? '',
      ...(record.destinationWalletId
        ? { custodialDestination: custodial(wallet(record.destinationWalletId)) }
        : {}),
      sendAsset: ledgerAsset(record.sendingAsset),
      amount: record.sendAmount,
      ...(record.transactionType === 'swap' ? { receiveAsset: ledgerAsset(record.receivingAsset) } : {}),
      ...(record.minReceiveAmount ? { minReceive: record.minReceiveAmount } : {}),
    },
  ];
}

/** What the ledger delivered: a swap's from its result, a P2P's is what was sent. */
async function completion(record: TransactionRecord, hash: string): Promise<Settlement> {
  // Acceptance records neither (null until the ledger delivered): a P2P delivers what it sent.
  let receiveAmount = record.sendAmount;
  let exchangeRate = '1';
  if (record.transactionType === 'swap') {
    const [received] = await pathPaymentReceipts(record.environment, hash);
    if (received === undefined) throw new Error(`Swap ${hash} has no path payment result`);
    receiveAmount = new BigNumber(received).toFixed();
    exchangeRate = new BigNumber(received).div(record.sendAmount).decimalPlaces(7).toFixed();
  }
  // A beneficiary to notify is told from the record's change to completed (lib/outbox.ts), not here.
  return { status: 'completed', stellarTxHash: hash, receiveAmount, exchangeRate };
}

/** A settlement, with the ledger envelopes it took (null: none was built) and, landed, its ledger and fee. */
interface Settled {
  settlement: Settlement;
  envelopes: number | null;
  ledger?: LedgerFacts;
}

/**
 * Runs the record's ledger transaction: its settlement, or why it is not settled yet. `firstDelivery`:
 * the record's first message, received for the first time, so its intent most likely has no submission
 * record yet (see ExecutePaymentInput.firstDelivery).
 */
async function execute(
  tenant: Tenant,
  record: TransactionRecord,
  firstDelivery: boolean,
): Promise<Settled | { pending: string }> {
  const ready = await walletsReady(tenant, record);
  if ('failed' in ready) return { settlement: ready.failed, envelopes: null };
  if ('pending' in ready) return ready;
  let outcome: Awaited<ReturnType<typeof executePayment>>;
  try {
    outcome = await executePayment({
      environment: record.environment,
      intentId: record.intentId,
      // The request's fingerprint: the intent can only ever carry this record's payment.
      purpose: record.requestFingerprint,
      legs: legsOf(record, ready.wallets),
      ...(record.memo ? { memo: record.memo } : {}),
      recordId: record.transactionRecordId,
      slippage: record.slippage ?? '0',
      budgetMs: PAYMENT_BUDGET_MS,
      firstDelivery,
      // `Payment completed` (or failed) below is the submitter's line of the payment.
      outcomeLogged: true,
    });
  } catch (error) {
    // Acceptance checked what the ledger checks here; a refusal means a record that can never execute.
    if (!(error instanceof LedgerInputError)) throw error;
    return {
      settlement: {
        status: 'failed',
        stellarTxHash: null,
        errorCode: 'PAYMENT_INVALID',
        failureReason: error.message,
      },
      envelopes: null,
    };
  }
  if (outcome.status === 'pending') return { pending: `${outcome.errorCode}: ${outcome.failureReason}` };
  if (outcome.status === 'failed')
    return {
      settlement: {
        status: 'failed',
        stellarTxHash: outcome.hash,
        errorCode: outcome.errorCode,
        failureReason: outcome.failureReason,
      },
      envelopes: outcome.attempt,
    };
  if (!outcome.hash) throw new Error(`Payment ${record.intentId} succeeded without a transaction`);
  return {
    settlement: await completion(record, outcome.hash),
    envelopes: outcome.attempt,
    ledger: ledgerFactsOf(outcome),
  };
}

/**
 * Puts the message back with a delay; past MAX_REQUEUES, fails it for the queue's redrive policy. Money
 * the platform owes (`owed`) is not a failed message: past that, the reconciler re-drives it (its place on
 * the pending index) and the owed-money alarm says how long it has been owed.
 */
async function requeue(message: PaymentMessage, reason: string, owed = false): Promise<void> {
  const attempt = message.attempt ?? 1;
  if (attempt >= MAX_REQUEUES && owed) {
    logger.warn('Owed payment still refused: left to the reconciler', { reason, attempt });
    return;
  }
  if (attempt >= MAX_REQUEUES)
    throw new PaymentNotSettled(`Payment ${message.transactionRecordId} still not settled: ${reason}`);
  const delay = requeueDelaySeconds(attempt);
  logger.info('Payment not settled yet: re-queued', { reason, attempt, delaySeconds: delay });
  await sendToQueue(LEDGER_SUBMISSION_QUEUE, { ...message, attempt: attempt + 1 }, delay);
}

/**
 * A ramp moves in steps (ramps/execution.ts): each delivery takes the steps its record is ready for, and is put
 * back while one waits on the ledger or the provider.
 */
async function advanceRamp(
  tenant: Tenant,
  first: TransactionRecord,
  message: PaymentMessage,
  now: () => Date,
): Promise<void> {
  let record: TransactionRecord | undefined = first;
  for (let step = 0; record && step < 3; step++) {
    let result: Awaited<ReturnType<typeof advanceRampStep>>;
    try {
      result = await advanceRampStep(tenant, record, now());
    } catch (error) {
      if (!(error instanceof LedgerUnavailableError)) throw error;
      result = { pending: error.message };
    }
    if ('pending' in result) return requeue(message, result.pending, result.owed);
    const before = record.version ?? 0;
    const after: TransactionRecord | undefined = await findTransaction(tenant, record.transactionRecordId, {
      consistent: true,
    });
    // Another step is due only when this one moved the record (a payout after the ledger leg, a
    // collection that completed before its answer was recorded).
    if (!after || (after.version ?? 0) === before) return;
    record = after;
  }
}

/** How the message came: `firstDelivery` when SQS delivers it for the first time (not a re-queue). */
export interface Delivery {
  now?: () => Date;
  firstDelivery?: boolean;
}

/** Executes the record the message names, once, whatever the message has been through. */
export async function executeTransaction(
  message: PaymentMessage,
  { now = () => new Date(), firstDelivery = false }: Delivery = {},
): Promise<void> {
  const tenant: Tenant = { environment: message.environment, associationId: message.associationId };
  const keys = { transactionRecordId: message.transactionRecordId, requestId: message.requestId };
  logger.appendKeys(keys);
  annotate(keys);
  // Consistent: the message follows the insert within milliseconds.
  const record = await findTransaction(tenant, message.transactionRecordId, { consistent: true });
  if (!record) {
    // The insert sent the message, so a record that is not there was never written: nothing to pay.
    logger.warn('Payment dropped: no such transaction record');
    return;
  }
  if (record.ramp) return advanceRamp(tenant, record, message, now);
  if (record.status !== 'initiated') return;
  let result: Settled | { pending: string };
  try {
    result = await execute(tenant, record, firstDelivery && (message.attempt ?? 1) === 1);
  } catch (error) {
    if (!(error instanceof LedgerUnavailableError)) throw error;
    result = { pending: error.message };
  }
  if ('pending' in result) return requeue(message, result.pending);
  const { settlement, envelopes, ledger } = result;
  const { status, ...facts } = settlement;
  const moved = await applyEvent(
    tenant,
    record,
    {
      type: status === 'completed' ? 'ledger_landed' : 'ledger_refused',
      facts,
      reason: settlement.status === 'failed' ? settlement.failureReason : null,
      source: 'ledger-submitter',
      measures: { deliveries: message.attempt ?? 1, envelopes },
      ...(ledger ? { ledger } : {}),
    },
    now(),
  );
  // The ids in the line as well as the keys: the line that ends the payment is found by them for sure.
  logger.info(`Payment ${status}`, {
    transactionRecordId: record.transactionRecordId,
    requestId: message.requestId,
    moved: moved.outcome === 'moved',
    stellarTxHash: settlement.stellarTxHash,
    ...(settlement.status === 'failed' ? { errorCode: settlement.errorCode } : {}),
  });
}
