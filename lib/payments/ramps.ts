// Executing an off-ramp (the ledger-submissions worker, as every payment), one step per delivery of its
// message, each step safe to repeat and to crash in:
//   initiated  → the wallet pays `originalSendAmount` (amount + fee) to the connector's settlement
//                account: one submitOnce on a channel keyed by the record's intent → processing (with
//                stellarTxHash), or failed (nothing moved);
//   processing → the payout is instructed, idempotent at the provider by the record id (recorded first,
//                so a notification finds its record): a crash before or after it instructs it again,
//                and the provider answers with the instruction it holds; externalReference is set;
//   failed with a ledger leg (the provider failed or returned the payout) → the settlement account pays
//                the wallet back, under an intent of its own (`refund:<id>`), → refund_completed.
// The provider's notifications (applyProviderState) move processing → completed | failed and
// processing or completed → failed (returned), in whatever order they come; the record's change asks
// for the refund through the outbox.
import type { Written } from '../db/items.ts';
import type { Tenant } from '../http/types.ts';
import { LedgerInputError } from '../ledger/errors.ts';
import { executePayment } from '../ledger/payments.ts';
import { platformAccount } from '../ledger/platform-accounts.ts';
import type { SubmissionOutcome } from '../ledger/submit.ts';
import { logger } from '../log.ts';
import * as metrics from '../metrics.ts';
import {
  type InstructionState,
  ProviderNotConfiguredError,
  ProviderRejectedError,
  ProviderUnavailableError,
} from '../providers/contract.ts';
import { providerFor, recordInstruction } from '../providers/service.ts';
import { findWalletRecord } from '../wallets/lookups.ts';
import { releaseRampUse } from './ramp-usage.ts';
import { moveTransaction, type TransactionRecord } from './repo.ts';

/** The ledger budget of one step, as for every payment (execution.ts). */
const RAMP_BUDGET_MS = 6_000;

export const refundIntentIdOf = (transactionRecordId: string) => `refund:${transactionRecordId}`;

export type RampStep = { done: true } | { pending: string };

const ledgerAsset = (record: TransactionRecord) =>
  record.sendingAsset.issuer === null
    ? ('native' as const)
    : { code: record.sendingAsset.code, issuer: record.sendingAsset.issuer };

/** Where the provider's report takes a ramp record, from the status it is in; null: nowhere. */
function rampMove(
  record: TransactionRecord,
  state: InstructionState,
): { from: TransactionRecord['status']; set: Record<string, unknown> } | null {
  if (record.transactionType === 'onramp')
    // A collection that completed is paid out by the worker (the change asks for it, lib/outbox.ts).
    return record.status === 'processing' && state.status === 'failed'
      ? {
          from: 'processing',
          set: {
            status: 'failed',
            errorCode: 'COLLECTION_FAILED',
            failureReason: state.reason ?? 'The counterparty’s payment was declined or expired.',
          },
        }
      : null;
  if (record.status === 'processing' && state.status === 'completed')
    return { from: 'processing', set: { status: 'completed' } };
  if (record.status === 'processing' && state.status === 'failed')
    return {
      from: 'processing',
      set: {
        status: 'failed',
        refundDue: true,
        errorCode: 'PROVIDER_FAILED',
        failureReason: state.reason ?? 'The provider failed the payout.',
      },
    };
  // A return is a payout that completed and came back: whether or not its `completed` report came first
  // (or at all), the payout is failed and refunded.
  if ((record.status === 'processing' || record.status === 'completed') && state.status === 'returned')
    return {
      from: record.status,
      set: {
        status: 'failed',
        refundDue: true,
        errorCode: 'PAYOUT_RETURNED',
        failureReason: state.reason ?? 'The payout was returned.',
        completedAt: null,
      },
    };
  return null;
}

/**
 * Moves a ramp record from `from`. The write that settles it (to completed or failed, from initiated or
 * processing) counts its settlement, as a P2P's does (execution.ts): whichever step or notification
 * makes it, once. A payout returned after it completed is no second settlement.
 */
async function moveRamp(
  tenant: Tenant,
  record: TransactionRecord,
  from: TransactionRecord['status'],
  set: Record<string, unknown>,
  now: Date,
): Promise<Written<TransactionRecord>> {
  const written = await moveTransaction(tenant, record.transactionRecordId, from, set, now);
  const status = set.status;
  if (
    written.outcome === 'written' &&
    from !== 'completed' &&
    (status === 'completed' || status === 'failed')
  )
    metrics.countSettled(
      {
        ...record,
        status,
        errorCode: status === 'failed' ? String(set.errorCode) : null,
        deliveries: null,
        envelopes: null,
      },
      now,
    );
  // A collection that failed moved nothing: it no longer counts toward the connector's limits.
  if (
    written.outcome === 'written' &&
    status === 'failed' &&
    record.transactionType === 'onramp' &&
    record.ramp
  )
    await releaseRampUse(tenant, record.ramp.connectorId, record.transactionRecordId);
  return written;
}

/** How far an instruction has got at the provider: a report that arrives late never takes it back. */
const PROVIDER_PROGRESS: Record<InstructionState['status'], number> = {
  pending: 0,
  processing: 1,
  completed: 2,
  failed: 3,
  returned: 3,
};

const isBehind = (record: TransactionRecord, state: InstructionState) =>
  record.providerStatus != null &&
  PROVIDER_PROGRESS[state.status] <
    (PROVIDER_PROGRESS[record.providerStatus as InstructionState['status']] ?? 0);

/** Moves a record whose write another move beat is applied again, to what that one wrote, this many times. */
const PROVIDER_STATE_ATTEMPTS = 5;

/**
 * Applies what the provider says of a record's instruction (a notification, or its answer to one).
 * Reports may come in any order and at the same time as another move (a notification, the worker): a
 * late one never takes the provider's state back, and one whose write another move beat is applied to
 * what that move wrote, so a `returned` that loses to its `completed` still fails and refunds the payout.
 */
export async function applyProviderState(
  tenant: Tenant,
  record: TransactionRecord,
  state: InstructionState,
  now: Date,
): Promise<void> {
  let current = record;
  for (let attempt = 0; attempt < PROVIDER_STATE_ATTEMPTS; attempt += 1) {
    const written = await applyProviderStateOnce(tenant, current, state, now);
    if (written?.outcome !== 'conditionFailed') return;
    current = written.current;
  }
  throw new Error(
    `Ramp ${record.transactionRecordId}: the provider's ${state.status} kept losing to other moves`,
  );
}

async function applyProviderStateOnce(
  tenant: Tenant,
  record: TransactionRecord,
  state: InstructionState,
  now: Date,
): Promise<Written<TransactionRecord> | null> {
  const move = rampMove(record, state);
  const common = { externalReference: state.providerReference, providerStatus: state.status };
  if (!move) {
    if (isBehind(record, state)) return null;
    if (record.externalReference !== state.providerReference || record.providerStatus !== state.status)
      return moveRamp(tenant, record, record.status, common, now);
    return null;
  }
  const at = now.toISOString();
  const completes = move.set.status === 'completed';
  const written = await moveRamp(
    tenant,
    record,
    move.from,
    {
      ...common,
      ...move.set,
      // An off-ramp's beneficiary is told from its change to completed (lib/outbox.ts), not here.
      ...(completes ? { completedAt: at } : {}),
    },
    now,
  );
  logger.info('Ramp moved by its provider', { to: move.set.status, moved: written.outcome === 'written' });
  return written;
}

/** The ledger leg: the wallet pays the settlement account. */
async function payLedgerLeg(tenant: Tenant, record: TransactionRecord, now: Date): Promise<RampStep> {
  const wallet = record.walletId ? await findWalletRecord(tenant, record.walletId) : undefined;
  if (!wallet) throw new Error(`Off-ramp ${record.transactionRecordId} names a missing wallet`);
  if (wallet.activationStatus !== 'active') return { pending: `wallet ${wallet.walletId} is not open yet` };
  let outcome: SubmissionOutcome | { status: 'failed'; hash: null; errorCode: string; failureReason: string };
  try {
    outcome = await executePayment({
      environment: record.environment,
      intentId: record.intentId,
      purpose: record.requestFingerprint,
      legs: [
        {
          from: { publicKey: wallet.publicKey, sealedSecret: wallet.sealedSecret },
          to: record.destinationStellarAddress ?? '',
          sendAsset: ledgerAsset(record),
          amount: record.originalSendAmount,
        },
      ],
      recordId: record.transactionRecordId,
      slippage: '0',
      budgetMs: RAMP_BUDGET_MS,
    });
  } catch (error) {
    if (!(error instanceof LedgerInputError)) throw error;
    // Acceptance checked what the ledger checks here: a record that can never execute.
    outcome = { status: 'failed', hash: null, errorCode: 'PAYMENT_INVALID', failureReason: error.message };
  }
  if (outcome.status === 'pending') return { pending: `${outcome.errorCode}: ${outcome.failureReason}` };
  if (outcome.status === 'failed') {
    await moveRamp(
      tenant,
      record,
      'initiated',
      {
        status: 'failed',
        stellarTxHash: outcome.hash,
        errorCode: outcome.errorCode,
        failureReason: outcome.failureReason,
      },
      now,
    );
    // Nothing moved: the payment no longer counts toward its limits.
    if (record.ramp) await releaseRampUse(tenant, record.ramp.connectorId, record.transactionRecordId);
    return { done: true };
  }
  await moveRamp(tenant, record, 'initiated', { status: 'processing', stellarTxHash: outcome.hash }, now);
  return { done: true };
}

/**
 * Sends the record's instruction to its provider, idempotent by the record id (recorded first, so a
 * notification that beats the answer finds its record): the provider's answer, a step to wait
 * (unavailable, not configured: re-queued), or its refusal (what `refused` makes of it).
 */
async function instruct(
  tenant: Tenant,
  record: TransactionRecord,
  now: Date,
  kind: 'payout' | 'collection',
  refused: { from: TransactionRecord['status']; set: Record<string, unknown> },
): Promise<InstructionState | RampStep> {
  const ramp = record.ramp;
  if (!ramp) throw new Error(`Ramp ${record.transactionRecordId} has no connector`);
  const reference = record.transactionRecordId;
  await recordInstruction({
    environment: record.environment,
    connectorId: ramp.connectorId,
    reference,
    kind,
    associationId: record.associationId,
    transactionRecordId: reference,
    createdAt: now.toISOString(),
  });
  const common = {
    reference,
    connectorId: ramp.connectorId,
    amount: ramp.fiatAmount,
    currency: ramp.fiatCurrency,
    statementReference: record.toRef,
  };
  try {
    const provider = await providerFor(record.environment, ramp.connectorId);
    return kind === 'payout'
      ? await provider.submitPayout({
          ...common,
          beneficiary: ramp.beneficiary,
          destination: ramp.destination,
        })
      : await provider.startCollection({ ...common, payer: ramp.beneficiary, source: ramp.destination });
  } catch (error) {
    if (error instanceof ProviderUnavailableError || error instanceof ProviderNotConfiguredError)
      return { pending: error.message };
    if (!(error instanceof ProviderRejectedError)) throw error;
    await moveRamp(tenant, record, refused.from, { ...refused.set, failureReason: error.message }, now);
    return { done: true };
  }
}

const isStep = (answer: InstructionState | RampStep): answer is RampStep =>
  'done' in answer || 'pending' in answer;

/** The payout instruction; a refusal fails the record, which is then refunded (its ledger leg landed). */
async function instructPayout(tenant: Tenant, record: TransactionRecord, now: Date): Promise<RampStep> {
  const answer = await instruct(tenant, record, now, 'payout', {
    from: 'processing',
    set: { status: 'failed', refundDue: true, errorCode: 'PROVIDER_REJECTED' },
  });
  if (isStep(answer)) return answer;
  await applyProviderState(tenant, record, answer, now);
  return { done: true };
}

/** Pays the wallet back from the settlement account, once (its own intent), → refund_completed. */
async function refund(tenant: Tenant, record: TransactionRecord, now: Date): Promise<RampStep> {
  const ramp = record.ramp;
  const wallet = record.walletId ? await findWalletRecord(tenant, record.walletId) : undefined;
  if (!ramp || !wallet) throw new Error(`Off-ramp ${record.transactionRecordId} cannot be refunded`);
  const settlement = await platformAccount(record.environment, `settlement:${ramp.connectorId}`);
  const outcome = await executePayment({
    environment: record.environment,
    intentId: refundIntentIdOf(record.transactionRecordId),
    purpose: `refund:${record.requestFingerprint}`,
    legs: [
      {
        from: { publicKey: settlement.publicKey, sealedSecret: settlement.sealedSecret },
        to: wallet.publicKey,
        custodialDestination: { publicKey: wallet.publicKey, sealedSecret: wallet.sealedSecret },
        sendAsset: ledgerAsset(record),
        amount: record.originalSendAmount,
      },
    ],
    recordId: record.transactionRecordId,
    slippage: '0',
    budgetMs: RAMP_BUDGET_MS,
  });
  // A refund the ledger refuses is retried until the queue's redrive policy alarms: the money is owed.
  if (outcome.status !== 'succeeded')
    return { pending: `refund ${outcome.status}: ${outcome.failureReason}` };
  await moveRamp(tenant, record, 'failed', { status: 'refund_completed', refundTxHash: outcome.hash }, now);
  await releaseRampUse(tenant, ramp.connectorId, record.transactionRecordId);
  return { done: true };
}

/** Asks the provider to collect from the counterparty; a refusal fails the record, nothing moved. */
async function startCollection(tenant: Tenant, record: TransactionRecord, now: Date): Promise<RampStep> {
  const answer = await instruct(tenant, record, now, 'collection', {
    from: 'initiated',
    set: { status: 'failed', errorCode: 'COLLECTION_REJECTED' },
  });
  if (isStep(answer)) return answer;
  // The provider's state itself (providerStatus) is what its notifications write: a notification that
  // beat this answer must not be overwritten by it.
  await moveRamp(
    tenant,
    record,
    'initiated',
    { status: 'processing', externalReference: answer.providerReference },
    now,
  );
  return { done: true };
}

/**
 * The collection arrived (an on-ramp, processing) or the receipt was reported (a provider on-ramp,
 * initiated): the settlement account pays the wallet `receiveAmount`, once (the intent).
 */
async function payWallet(tenant: Tenant, record: TransactionRecord, now: Date): Promise<RampStep> {
  const ramp = record.ramp;
  const wallet = record.walletId ? await findWalletRecord(tenant, record.walletId) : undefined;
  if (!ramp || !wallet) throw new Error(`On-ramp ${record.transactionRecordId} cannot be paid out`);
  if (wallet.activationStatus !== 'active') return { pending: `wallet ${wallet.walletId} is not open yet` };
  const settlement = await platformAccount(record.environment, `settlement:${ramp.connectorId}`);
  const asset = record.receivingAsset;
  const outcome = await executePayment({
    environment: record.environment,
    intentId: record.intentId,
    purpose: record.requestFingerprint,
    legs: [
      {
        from: { publicKey: settlement.publicKey, sealedSecret: settlement.sealedSecret },
        to: wallet.publicKey,
        custodialDestination: { publicKey: wallet.publicKey, sealedSecret: wallet.sealedSecret },
        sendAsset: asset.issuer === null ? 'native' : { code: asset.code, issuer: asset.issuer },
        amount: record.receiveAmount ?? '0',
      },
    ],
    recordId: record.transactionRecordId,
    slippage: '0',
    budgetMs: RAMP_BUDGET_MS,
  });
  // The counterparty has paid: a payout the ledger refuses is retried until the redrive policy alarms.
  if (outcome.status !== 'succeeded')
    return { pending: `payout ${outcome.status}: ${outcome.failureReason}` };
  await moveRamp(
    tenant,
    record,
    record.status,
    { status: 'completed', stellarTxHash: outcome.hash, completedAt: now.toISOString() },
    now,
  );
  return { done: true };
}

/** The next step of an on-ramp, from where its record stands. */
async function advanceOnramp(tenant: Tenant, record: TransactionRecord, now: Date): Promise<RampStep> {
  if (record.status === 'initiated') return startCollection(tenant, record, now);
  if (record.status !== 'processing') return { done: true };
  if (record.providerStatus === 'completed' && !record.stellarTxHash) return payWallet(tenant, record, now);
  if (record.providerStatus === 'failed') {
    await applyProviderState(
      tenant,
      record,
      {
        reference: record.transactionRecordId,
        providerReference: record.externalReference ?? '',
        status: 'failed',
        reason: null,
      },
      now,
    );
  }
  return { done: true };
}

/** The next step of a ramp, from where its record stands. */
export function advanceRamp(tenant: Tenant, record: TransactionRecord, now: Date): Promise<RampStep> {
  if (record.transactionType === 'onramp') return advanceOnramp(tenant, record, now);
  // A provider on-ramp's money arrived at the provider before its record existed: pay the wallet.
  if (record.transactionType === 'provider_onramp')
    return record.status === 'initiated' ? payWallet(tenant, record, now) : Promise.resolve({ done: true });
  return advanceOfframp(tenant, record, now);
}

/** The next step of an off-ramp, from where its record stands. */
async function advanceOfframp(tenant: Tenant, record: TransactionRecord, now: Date): Promise<RampStep> {
  if (record.status === 'initiated') return payLedgerLeg(tenant, record, now);
  if (record.status === 'processing' && !record.externalReference) return instructPayout(tenant, record, now);
  if (record.status === 'failed' && record.refundDue && !record.refundTxHash)
    return refund(tenant, record, now);
  return { done: true };
}
