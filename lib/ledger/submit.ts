// Crash-safe submission (design convention 9, as Stellar's Disbursement Platform does it): an intent is
// sent to the ledger at most once, whatever crashes, timeouts or concurrent workers happen.
//
//  1. Before anything is sent, the signed envelope, its hash and its maxTime are persisted (submissions.ts).
//  2. After any doubt (timeout, 5xx, dropped connection, a worker resuming) the hash is looked up first.
//     Found → the intent's outcome. Not found and still valid → THE SAME envelope is sent again.
//  3. A new envelope is built only when the old one can no longer land: the ledger said so (tx_bad_seq,
//     tx_insufficient_fee, tx_too_late) or it is past maxTime + a margin and not found. As a last guard
//     the new envelope must reuse the old one's source and sequence number (then at most one of the two
//     can ever land), or the ledger must show that sequence number consumed while the old hash is absent.
//  4. Each call is bounded; out of rounds it answers `pending` and a later retry (an SQS redelivery)
//     resumes from the stored hash: it never builds while the stored envelope could still land.
import {
  FeeBumpTransaction,
  type Horizon,
  NetworkError,
  NotFoundError,
  type Transaction,
  TransactionBuilder,
} from '@stellar/stellar-sdk';
import type { Environment } from '../http/types.ts';
import { logger } from '../log.ts';
import { LedgerRefusal, LedgerUnavailableError } from './errors.ts';
import { ledgerNetwork } from './network.ts';
import {
  classifyResultCodes,
  classifySubmissionError,
  type LedgerVerdict,
  resultCodesFromXdr,
} from './result-codes.ts';
import {
  findSubmission,
  replaceSubmission,
  type Settlement,
  type SubmissionRecord,
  settleSubmission,
  type WriteResult,
} from './submissions.ts';

/** How long an envelope may land for: its inner transaction's maxTime is now + this. */
export const ENVELOPE_VALIDITY_SECONDS = 60;
/** Envelopes valid for longer are refused: the longer an envelope lives, the longer a retry must wait. */
const MAX_VALIDITY_SECONDS = 300;

export interface BuildContext {
  server: Horizon.Server;
  networkPassphrase: string;
  now: Date;
  /** 1 for an intent's first envelope, +1 for each replacement (builders raise the fee with it). */
  attempt: number;
}

/**
 * Builds and signs the intent's transaction, with time bounds (use `timeBoundsFor(ctx.now)`). Returns
 * null when the ledger already holds what the intent wants (nothing to submit); throws LedgerRefusal
 * for an intent that must fail without reaching the ledger.
 */
export type BuildTransaction = (ctx: BuildContext) => Promise<Transaction | FeeBumpTransaction | null>;

export interface SubmitOptions {
  environment: Environment;
  /** Unique per environment; the submission record is keyed by it. */
  intentId: string;
  build: BuildTransaction;
  /** The clock (time bounds, expiry). */
  now?: () => Date;
  /** Rounds (look up, maybe rebuild, submit) in one call before answering `pending`. Default 5. */
  maxRounds?: number;
  /** How long past maxTime an envelope that is not found is still waited for. Default 10 s. */
  expiryMarginSeconds?: number;
  /** Pause after an unknown outcome before looking again. Default 1000 ms. */
  pauseMs?: number;
}

export type SubmissionOutcome =
  | { status: 'succeeded'; intentId: string; hash: string | null; ledger: number | null; attempt: number }
  | {
      status: 'failed';
      intentId: string;
      hash: string | null;
      errorCode: string;
      failureReason: string;
      attempt: number;
    }
  | {
      /** Not settled yet (the ledger is slow or unreachable): retry later; nothing new will be built. */
      status: 'pending';
      intentId: string;
      hash: string | null;
      attempt: number;
      errorCode: string;
      failureReason: string;
    };

export const timeBoundsFor = (now: Date) => ({
  minTime: 0,
  maxTime: Math.floor(now.getTime() / 1000) + ENVELOPE_VALIDITY_SECONDS,
});

/** Fee per operation in stroops: the minimum, doubled for each replacement envelope, capped at 0.001 XLM. */
export const baseFeeFor = (attempt: number): string => String(Math.min(100 * 2 ** (attempt - 1), 10_000));

const innerOf = (tx: Transaction | FeeBumpTransaction): Transaction =>
  tx instanceof FeeBumpTransaction ? tx.innerTransaction : tx;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

interface Found {
  hash: string;
  successful: boolean;
  ledger: number | null;
  resultXdr: string | undefined;
}

type Step = { outcome: SubmissionOutcome } | { record: SubmissionRecord; adopted?: boolean };

function outcomeOf(record: SubmissionRecord): SubmissionOutcome {
  const { intentId, hash, attempt } = record;
  if (record.status === 'succeeded') {
    return { status: 'succeeded', intentId, hash, ledger: record.ledger ?? null, attempt };
  }
  if (record.status === 'failed') {
    return {
      status: 'failed',
      intentId,
      hash,
      errorCode: record.errorCode ?? 'LEDGER_FAILED',
      failureReason: record.failureReason ?? 'The ledger refused the transaction.',
      attempt,
    };
  }
  return {
    status: 'pending',
    intentId,
    hash,
    attempt,
    errorCode: 'LEDGER_PENDING',
    failureReason: 'The transaction is not settled yet.',
  };
}

/** Any Horizon failure other than "not found" is the ledger being unavailable (transient). */
async function horizon<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof LedgerUnavailableError) throw error;
    throw new LedgerUnavailableError(`The ledger could not be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

const isTransient = (error: unknown) =>
  error instanceof LedgerUnavailableError || error instanceof NetworkError;

/** A submission run: one call of submitOnce (or prepareSubmission). */
class SubmissionRun {
  readonly environment: Environment;
  readonly intentId: string;
  readonly build: BuildTransaction;
  readonly now: () => Date;
  readonly server: Horizon.Server;
  readonly networkPassphrase: string;
  readonly marginSeconds: number;

  constructor(options: SubmitOptions) {
    const network = ledgerNetwork(options.environment);
    this.environment = options.environment;
    this.intentId = options.intentId;
    this.build = options.build;
    this.now = options.now ?? (() => new Date());
    this.server = network.server;
    this.networkPassphrase = network.networkPassphrase;
    this.marginSeconds = options.expiryMarginSeconds ?? 10;
  }

  log(message: string, record: SubmissionRecord | undefined, extra: Record<string, unknown> = {}) {
    logger.info(message, {
      intentId: this.intentId,
      environment: this.environment,
      hash: record?.hash,
      attempt: record?.attempt,
      ...extra,
    });
  }

  /** Refuses envelopes that could land at an unknown time, on another network, or unsigned. */
  describe(tx: Transaction | FeeBumpTransaction) {
    const inner = innerOf(tx);
    const maxTime = Number(inner.timeBounds?.maxTime ?? 0);
    if (!maxTime) throw new TypeError(`Refusing to submit ${this.intentId}: the transaction has no maxTime`);
    if (maxTime > seconds(this.now()) + MAX_VALIDITY_SECONDS) {
      throw new TypeError(
        `Refusing to submit ${this.intentId}: maxTime is more than ${MAX_VALIDITY_SECONDS}s away`,
      );
    }
    if (tx.networkPassphrase !== this.networkPassphrase) {
      throw new TypeError(`Refusing to submit ${this.intentId}: built for another network`);
    }
    if (!tx.signatures.length || !inner.signatures.length) {
      throw new TypeError(`Refusing to submit ${this.intentId}: the transaction is not signed`);
    }
    return {
      hash: hex(tx.hash()),
      ...(tx instanceof FeeBumpTransaction ? { innerHash: hex(inner.hash()) } : {}),
      envelopeXdr: tx.toXDR(),
      maxTime,
    };
  }

  envelopeOf(record: SubmissionRecord): Transaction | FeeBumpTransaction {
    return TransactionBuilder.fromXDR(record.envelopeXdr ?? '', this.networkPassphrase);
  }

  expired(record: SubmissionRecord): boolean {
    return record.maxTime !== null && seconds(this.now()) > record.maxTime + this.marginSeconds;
  }

  /** Follows a lost conditional write: the record as another worker left it. */
  adopt(result: WriteResult & { written: false }): Step {
    const current = result.current;
    if (!current) throw new Error(`Submission record of ${this.intentId} vanished`);
    this.log('Ledger submission taken over by another worker', current);
    return current.status === 'submitting'
      ? { record: current, adopted: true }
      : { outcome: outcomeOf(current) };
  }

  /** Builds an envelope (the first, or one replacing `previous`) and persists it before any submission. */
  async newEnvelope(previous: SubmissionRecord | undefined): Promise<Step> {
    const attempt = (previous?.attempt ?? 0) + 1;
    const now = this.now();
    const base = {
      environment: this.environment,
      intentId: this.intentId,
      attempt,
      previousHashes: previous ? [...previous.previousHashes, ...(previous.hash ? [previous.hash] : [])] : [],
      createdAt: previous?.createdAt ?? now.toISOString(),
      updatedAt: now.toISOString(),
    };
    const expected = previous ? previous.hash : undefined;
    let tx: Transaction | FeeBumpTransaction | null;
    try {
      tx = await this.build({ server: this.server, networkPassphrase: this.networkPassphrase, now, attempt });
    } catch (error) {
      if (!(error instanceof LedgerRefusal)) throw error;
      const record: SubmissionRecord = {
        ...base,
        status: 'failed',
        hash: null,
        envelopeXdr: null,
        maxTime: null,
        errorCode: error.errorCode,
        failureReason: error.failureReason,
      };
      const written = await replaceSubmission(record, expected);
      this.log('Ledger submission refused before submitting', record, { errorCode: error.errorCode });
      return written.written ? { outcome: outcomeOf(record) } : this.adopt(written);
    }
    if (tx === null) {
      const record: SubmissionRecord = {
        ...base,
        status: 'succeeded',
        hash: null,
        envelopeXdr: null,
        maxTime: null,
        ledger: null,
      };
      const written = await replaceSubmission(record, expected);
      this.log('Ledger already in the wanted state: nothing submitted', record);
      return written.written ? { outcome: outcomeOf(record) } : this.adopt(written);
    }
    const record: SubmissionRecord = { ...base, status: 'submitting', ...this.describe(tx) };
    if (previous && !(await this.replaceable(previous, tx))) return { record: previous };
    const written = await replaceSubmission(record, expected);
    if (!written.written) return this.adopt(written);
    this.log('Ledger envelope persisted', record);
    return { record };
  }

  /**
   * The last guard before replacing an envelope: the new one reuses its source and sequence number (so at
   * most one of them can land), or the ledger shows that sequence number consumed and the old hash absent.
   */
  async replaceable(previous: SubmissionRecord, next: Transaction | FeeBumpTransaction): Promise<boolean> {
    if (!previous.envelopeXdr) return true;
    const old = innerOf(this.envelopeOf(previous));
    const fresh = innerOf(next);
    if (old.source === fresh.source && old.sequence === fresh.sequence) return true;
    const account = await horizon(() => this.server.loadAccount(old.source)).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    if (account && BigInt(account.sequence) < BigInt(old.sequence)) {
      this.log('Ledger envelope kept: its sequence number is not consumed yet', previous);
      return false;
    }
    return (await this.lookUp(previous)) === null;
  }

  /** The envelope's transaction on the ledger (by its hash, or a fee bump's inner hash), or null. */
  async lookUp(record: SubmissionRecord): Promise<Found | null> {
    for (const hash of [record.hash, record.innerHash]) {
      if (!hash) continue;
      try {
        const tx = await horizon(() => this.server.transactions().transaction(hash).call());
        return {
          hash: tx.fee_bump_transaction?.hash ?? tx.hash,
          successful: tx.successful,
          ledger: tx.ledger_attr ?? null,
          resultXdr: tx.result_xdr,
        };
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
    return null;
  }

  async settle(record: SubmissionRecord, settlement: Settlement): Promise<Step> {
    const written = await settleSubmission(
      this.environment,
      this.intentId,
      record.hash,
      settlement,
      this.now(),
    );
    if (!written.written) return this.adopt(written);
    const settled: SubmissionRecord = { ...record, ...settlement, updatedAt: this.now().toISOString() };
    this.log(`Ledger submission ${settlement.status}`, settled, {
      ...(settlement.status === 'failed' ? { errorCode: settlement.errorCode } : {}),
    });
    return { outcome: outcomeOf(settled) };
  }

  settleFound(record: SubmissionRecord, found: Found): Promise<Step> {
    if (found.successful) {
      return this.settle(record, { status: 'succeeded', hash: found.hash, ledger: found.ledger });
    }
    let verdict: LedgerVerdict = classifyResultCodes({ transaction: 'tx_failed' });
    try {
      if (found.resultXdr) verdict = classifyResultCodes(resultCodesFromXdr(found.resultXdr));
    } catch {
      // an undecodable result: the generic tx_failed verdict stands
    }
    return this.settle(record, {
      status: 'failed',
      hash: found.hash,
      errorCode: verdict.errorCode,
      failureReason: verdict.failureReason,
    });
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Builds and persists the intent's envelope without submitting it (the first half of submitOnce), or
 * returns the intent's record if it has one. For callers that need the hash before submitting.
 */
export async function prepareSubmission(
  options: SubmitOptions,
): Promise<SubmissionRecord | SubmissionOutcome> {
  const existing = await findSubmission(options.environment, options.intentId);
  if (existing) return existing;
  const step = await new SubmissionRun(options).newEnvelope(undefined);
  return 'outcome' in step ? step.outcome : step.record;
}

/** Sends the intent's transaction to the ledger at most once; see the top of this file. */
export async function submitOnce(options: SubmitOptions): Promise<SubmissionOutcome> {
  const run = new SubmissionRun(options);
  const maxRounds = options.maxRounds ?? 5;
  const pauseMs = options.pauseMs ?? 1000;

  let record = await findSubmission(options.environment, options.intentId);
  if (record && record.status !== 'submitting') return outcomeOf(record);
  // A record in flight may or may not have reached the ledger (a crash, a timeout): look before acting.
  let doubt = record !== undefined;
  let mustRebuild = false;
  let lastVerdict: LedgerVerdict | undefined;

  for (let round = 1; round <= maxRounds; round++) {
    try {
      if (!record || doubt) {
        let step: Step | undefined;
        if (!record) {
          step = await run.newEnvelope(undefined);
        } else {
          const found = await run.lookUp(record);
          if (found) step = await run.settleFound(record, found);
          else if (mustRebuild || run.expired(record)) step = await run.newEnvelope(record);
        }
        if (step && 'outcome' in step) return step.outcome;
        if (step) {
          const replaced = step.record.hash !== record?.hash;
          record = step.record;
          if (step.adopted) continue; // another worker's envelope: look it up in the next round
          if (replaced) mustRebuild = false;
        }
      }
      if (!record) continue;
      try {
        const response = await run.server.submitTransaction(run.envelopeOf(record), {
          skipMemoRequiredCheck: true,
        });
        const step = await run.settle(record, {
          status: 'succeeded',
          hash: response.hash ?? record.hash ?? '',
          ledger: response.ledger ?? null,
        });
        if ('outcome' in step) return step.outcome;
        record = step.record;
        doubt = true;
      } catch (error) {
        const verdict = classifySubmissionError(error);
        lastVerdict = verdict;
        doubt = true;
        run.log('Ledger submission not confirmed', record, {
          errorCode: verdict.errorCode,
          action: verdict.action,
        });
        if (verdict.action === 'fail') {
          // A terminal answer: unless the envelope already landed (looked up first), the intent failed.
          const found = await run.lookUp(record);
          const step = found
            ? await run.settleFound(record, found)
            : await run.settle(record, {
                status: 'failed',
                hash: record.hash,
                errorCode: verdict.errorCode,
                failureReason: verdict.failureReason,
              });
          if ('outcome' in step) return step.outcome;
          record = step.record;
        } else if (verdict.action === 'rebuild') {
          mustRebuild = true;
        } else {
          await pause(pauseMs);
        }
      }
    } catch (error) {
      if (!isTransient(error)) throw error;
      lastVerdict = classifySubmissionError((error as Error).cause ?? error);
      doubt = record !== undefined;
      run.log('Ledger unavailable during submission', record, { errorCode: lastVerdict.errorCode });
      await pause(pauseMs);
    }
  }
  const pending = record ? outcomeOf(record) : undefined;
  return {
    status: 'pending',
    intentId: options.intentId,
    hash: pending?.hash ?? null,
    attempt: pending?.attempt ?? 0,
    errorCode: lastVerdict?.errorCode ?? 'LEDGER_PENDING',
    failureReason: lastVerdict?.failureReason ?? 'The transaction is not settled yet.',
  };
}
