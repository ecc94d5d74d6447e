// Executing a ramp (the ledger-submissions worker, as every payment), one step per delivery of its
// message, each step safe to repeat and to crash in. What may follow what is the record's lifecycle
// table (offramp-lifecycle.ts, onramp-lifecycle.ts, provider-onramp-lifecycle.ts); this file does the
// work each state asks for and reports what happened as an event (../lifecycle/apply.ts):
//   off-ramp initiated  → the wallet pays `originalSendAmount` (amount + fee) to the connector's
//                         settlement account, once (its intent): ledger_landed | ledger_refused;
//            leg_landed → the payout is instructed, idempotent at the provider by the record id (recorded
//                         first, so a notification finds its record): the provider's answer, or its refusal;
//            refund_due → the settlement account pays the wallet back (owed_paid | owed_refused);
//   on-ramp  initiated  → the collection is instructed: the provider's answer, or its refusal;
//            collected  → the settlement account pays the wallet `receiveAmount` (owed);
//   provider on-ramp initiated → the same credit, for a receipt (owed).
// Money the platform owes is paid until it lands: an attempt the ledger refuses (proven: nothing of it
// can ever land) is followed by a fresh intent, one at a time per record (the record's owedAttempt).
// A record waiting on its provider (paying_out, collecting) asks the provider for its state when the
// reconciler re-drives it: a notification that never came is read instead.

import { LedgerInputError } from '../../ledger/errors.ts';
import { executePayment, type PaymentLeg } from '../../ledger/payments.ts';
import { platformAccount } from '../../ledger/platform-accounts.ts';
import type { SubmissionOutcome } from '../../ledger/submit.ts';
import {
  type InstructionState,
  ProviderNotConfiguredError,
  ProviderRejectedError,
  ProviderUnavailableError,
} from '../../providers/contract.ts';
import { providerFor, recordInstruction } from '../../providers/service.ts';
import type { Tenant } from '../../tenant.ts';
import { findWalletRecord } from '../../wallets/lookups.ts';
import { applyEvent, type RecordEvent } from '../lifecycle/apply.ts';
import { ledgerFactsOf } from '../lifecycle/history.ts';
import type { EventType } from '../lifecycle/machine.ts';
import { stateOf } from '../lifecycle/records.ts';
import type { TransactionRecord } from '../repo.ts';
import { applyProviderState } from './provider-state.ts';

/** The ledger budget of one step, as for every payment (execution.ts). */
const RAMP_BUDGET_MS = 6_000;

export const refundIntentIdOf = (transactionRecordId: string) => `refund:${transactionRecordId}`;

/** An owed payment's intent: the first attempt keeps the id it always had, each later one its own. */
export const owedIntentIdOf = (base: string, attempt: number) => (attempt <= 1 ? base : `${base}#${attempt}`);

/** `owed`: a payment the platform owes was refused; the next attempt waits (backoff, then the reconciler). */
export type RampStep = { done: true } | { pending: string; owed?: true };

const ledgerAsset = (asset: TransactionRecord['sendingAsset']) =>
  asset.issuer === null ? ('native' as const) : { code: asset.code, issuer: asset.issuer };

/** A ledger outcome as the record's event; pending (not settled yet) is no event. */
function ledgerEvent(
  outcome: SubmissionOutcome,
  landed: EventType,
  refused: EventType,
  facts: (hash: string | null) => Record<string, unknown>,
): RecordEvent | null {
  if (outcome.status === 'pending') return null;
  if (outcome.status === 'succeeded')
    return {
      type: landed,
      facts: facts(outcome.hash),
      ledger: ledgerFactsOf(outcome),
      source: 'ledger-submitter',
    };
  // `failed` is only ever a closed ledger's result or every envelope proven dead (lib/ledger/submit.ts).
  return {
    type: refused,
    facts: { ...facts(outcome.hash), errorCode: outcome.errorCode, failureReason: outcome.failureReason },
    reason: outcome.failureReason,
    source: 'ledger-submitter',
  };
}

/** The ledger leg: the wallet pays the settlement account. */
async function payLedgerLeg(tenant: Tenant, record: TransactionRecord, now: Date): Promise<RampStep> {
  const wallet = record.walletId ? await findWalletRecord(tenant, record.walletId) : undefined;
  if (!wallet) throw new Error(`Off-ramp ${record.transactionRecordId} names a missing wallet`);
  if (wallet.activationStatus !== 'active') return { pending: `wallet ${wallet.walletId} is not open yet` };
  let outcome: SubmissionOutcome;
  try {
    outcome = await executePayment({
      environment: record.environment,
      intentId: record.intentId,
      purpose: record.requestFingerprint,
      legs: [
        {
          from: { publicKey: wallet.publicKey, sealedSecret: wallet.sealedSecret },
          to: record.destinationStellarAddress ?? '',
          sendAsset: ledgerAsset(record.sendingAsset),
          amount: record.originalSendAmount,
        },
      ],
      recordId: record.transactionRecordId,
      slippage: '0',
      budgetMs: RAMP_BUDGET_MS,
    });
  } catch (error) {
    if (!(error instanceof LedgerInputError)) throw error;
    // Refused before anything was built (the input itself): nothing of it was ever sent.
    outcome = {
      status: 'failed',
      intentId: record.intentId,
      hash: null,
      errorCode: 'PAYMENT_INVALID',
      failureReason: error.message,
      attempt: 0,
    };
  }
  if (outcome.status === 'pending') return { pending: `${outcome.errorCode}: ${outcome.failureReason}` };
  const event = ledgerEvent(outcome, 'ledger_landed', 'ledger_refused', (hash) => ({ stellarTxHash: hash }));
  if (!event) return { pending: 'the ledger leg is not settled yet' };
  await applyEvent(tenant, record, event, now);
  return { done: true };
}

/**
 * Sends the record's instruction to its provider, idempotent by the record id (recorded first, so a
 * notification that beats the answer finds its record), and applies the provider's answer or refusal.
 */
async function instruct(
  tenant: Tenant,
  record: TransactionRecord,
  now: Date,
  kind: 'payout' | 'collection',
): Promise<RampStep> {
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
  let answer: InstructionState;
  try {
    const provider = await providerFor(record.environment, ramp.connectorId);
    answer =
      kind === 'payout'
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
    await applyEvent(
      tenant,
      record,
      { type: 'provider_rejected', reason: error.message, source: 'provider-answer' },
      now,
    );
    return { done: true };
  }
  await applyProviderState(tenant, record, answer, now, 'provider-answer');
  return { done: true };
}

/**
 * A record waiting on its provider, re-driven: the provider's state of the instruction, applied when it
 * says more than the record knows (a notification lost on the way). Unreachable: the notification may
 * still come, and the next re-drive asks again.
 */
async function readProviderState(tenant: Tenant, record: TransactionRecord, now: Date): Promise<RampStep> {
  const ramp = record.ramp;
  if (!ramp) return { done: true };
  let state: InstructionState | null;
  try {
    state = await (await providerFor(record.environment, ramp.connectorId)).readStatus(
      record.transactionRecordId,
    );
  } catch (error) {
    if (error instanceof ProviderUnavailableError || error instanceof ProviderNotConfiguredError)
      return { done: true };
    throw error;
  }
  if (state && state.status !== record.providerStatus)
    await applyProviderState(tenant, record, state, now, 'reconciler');
  return { done: true };
}

/**
 * Pays what the platform owes (`leg`, from the settlement account) under the record's current attempt:
 * landed → owed_paid; refused → owed_refused, which moves the record to the next attempt, paid later on
 * an intent of its own. Two workers on one record pay the same attempt (submitOnce keeps it once); an
 * attempt starts only once the one before it is proven refused.
 */
async function payOwed(
  tenant: Tenant,
  record: TransactionRecord,
  now: Date,
  owed: {
    baseIntentId: string;
    purpose: string;
    leg: PaymentLeg;
    paid: (hash: string | null) => Record<string, unknown>;
  },
): Promise<RampStep> {
  const attempt = record.owedAttempt ?? 1;
  const outcome = await executePayment({
    environment: record.environment,
    intentId: owedIntentIdOf(owed.baseIntentId, attempt),
    purpose: owed.purpose,
    legs: [owed.leg],
    recordId: record.transactionRecordId,
    slippage: '0',
    budgetMs: RAMP_BUDGET_MS,
  });
  const event = ledgerEvent(outcome, 'owed_paid', 'owed_refused', owed.paid);
  if (!event) return { pending: `owed payment pending: ${outcome.status}` };
  if (event.type === 'owed_refused') {
    // The next attempt is a fresh intent; the refusal stays on the record for operations. Only the
    // attempt that was refused moves it on: a worker that read an older attempt changes nothing.
    const refusal = `${event.facts?.errorCode}: ${event.reason}`;
    event.facts = { owedAttempt: attempt + 1, owedRefusal: refusal };
    event.onlyIf = (current) => (current.owedAttempt ?? 1) === attempt;
    await applyEvent(tenant, record, event, now);
    return { pending: `owed payment refused (attempt ${attempt}): ${refusal}`, owed: true };
  }
  await applyEvent(tenant, record, event, now);
  return { done: true };
}

/** Pays the wallet back from the settlement account: the off-ramp's refund. */
async function refund(tenant: Tenant, record: TransactionRecord, now: Date): Promise<RampStep> {
  const ramp = record.ramp;
  const wallet = record.walletId ? await findWalletRecord(tenant, record.walletId) : undefined;
  if (!ramp || !wallet) throw new Error(`Off-ramp ${record.transactionRecordId} cannot be refunded`);
  const settlement = await platformAccount(record.environment, `settlement:${ramp.connectorId}`);
  return payOwed(tenant, record, now, {
    baseIntentId: refundIntentIdOf(record.transactionRecordId),
    purpose: `refund:${record.requestFingerprint}`,
    leg: {
      from: { publicKey: settlement.publicKey, sealedSecret: settlement.sealedSecret },
      to: wallet.publicKey,
      custodialDestination: { publicKey: wallet.publicKey, sealedSecret: wallet.sealedSecret },
      sendAsset: ledgerAsset(record.sendingAsset),
      amount: record.originalSendAmount,
    },
    paid: (hash) => ({ refundTxHash: hash }),
  });
}

/**
 * The collection arrived (an on-ramp) or the receipt was reported (a provider on-ramp): the settlement
 * account pays the wallet `receiveAmount`.
 */
async function credit(tenant: Tenant, record: TransactionRecord, now: Date): Promise<RampStep> {
  const ramp = record.ramp;
  const wallet = record.walletId ? await findWalletRecord(tenant, record.walletId) : undefined;
  if (!ramp || !wallet) throw new Error(`On-ramp ${record.transactionRecordId} cannot be paid out`);
  if (wallet.activationStatus !== 'active') return { pending: `wallet ${wallet.walletId} is not open yet` };
  const settlement = await platformAccount(record.environment, `settlement:${ramp.connectorId}`);
  return payOwed(tenant, record, now, {
    baseIntentId: record.intentId,
    purpose: record.requestFingerprint,
    leg: {
      from: { publicKey: settlement.publicKey, sealedSecret: settlement.sealedSecret },
      to: wallet.publicKey,
      custodialDestination: { publicKey: wallet.publicKey, sealedSecret: wallet.sealedSecret },
      sendAsset: ledgerAsset(record.receivingAsset),
      amount: record.receiveAmount ?? '0',
    },
    paid: (hash) => ({ stellarTxHash: hash }),
  });
}

type Step = (tenant: Tenant, record: TransactionRecord, now: Date) => Promise<RampStep>;

/** The work each state asks for, by record kind; a state not named asks for none. */
const STEPS: Record<string, Record<string, Step>> = {
  offramp: {
    initiated: payLedgerLeg,
    leg_landed: (tenant, record, now) => instruct(tenant, record, now, 'payout'),
    paying_out: readProviderState,
    refund_due: refund,
  },
  onramp: {
    initiated: (tenant, record, now) => instruct(tenant, record, now, 'collection'),
    collecting: readProviderState,
    collected: credit,
  },
  provider_onramp: { initiated: credit },
};

/** The next step of a ramp, from where its record stands. */
export function advanceRamp(tenant: Tenant, record: TransactionRecord, now: Date): Promise<RampStep> {
  const step = STEPS[record.transactionType]?.[stateOf(record)];
  return step ? step(tenant, record, now) : Promise.resolve({ done: true });
}
