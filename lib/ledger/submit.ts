// Crash-safe submission (design convention 9, as Stellar's Disbursement Platform does it): an intent is
// put on the ledger at most once, whatever crashes, timeouts, late answers or concurrent workers happen.
//
//  1. Before anything is sent, the signed envelope is persisted with its hashes, source, sequence and
//     maxTime (submissions.ts). Every envelope ever built for the intent stays on the record.
//  2. After any doubt (a timeout, a 5xx, a dropped answer, a worker resuming, another worker's write)
//     EVERY hash of EVERY envelope (outer and inner) is looked up first. Found in a closed ledger → that
//     result is the intent's outcome, success or failure.
//  3. A replacement is built only with proof (proofs.ts) about each envelope that might still land:
//     - it reuses that envelope's source and sequence number, so at most one of them can ever land
//       (a node said the envelope cannot land as it is: fee too low, too late for its queue); or
//     - the ledger proves it dead: expired (a Horizon that had ingested a ledger closed after its
//       maxTime does not have it — ledger time, never this worker's clock) or superseded (the source's
//       own history shows another transaction consumed its sequence number).
//     A node's verdict is tied to the envelope it was about: after another worker's write it lapses.
//  4. `failed` is written only from a result in a closed ledger, or once every envelope is proven dead
//     (a node's rejection alone may be about its own queue). Otherwise the answer is `pending`, and a
//     later call (an SQS redelivery) resumes from the record: it never builds without proof.
//  5. With `channel` (every wallet and payment operation), the transaction's source is a channel account
//     leased to the intent (channels.ts) before anything is built: same-sequence replacements stay on
//     it, a replacement of dead envelopes may move, and the lease ends when the intent settles.
import { createHash } from 'node:crypto';
import {
  Account,
  FeeBumpTransaction,
  type Keypair,
  NetworkError,
  hash as sha256,
  type Transaction,
} from '@stellar/stellar-sdk';
import { logger } from '../log.ts';
import type { Environment } from '../tenant.ts';
import { leaseChannel, releaseChannels, renewLease, sequenceToBuildOn } from './channels.ts';
import type { SealedSecret } from './custody.ts';
import { IntentConflict, LedgerRefusal, LedgerUnavailableError } from './errors.ts';
import { submitEnvelope } from './horizon-submit.ts';
import { platformLedgerAccount } from './load-account.ts';
import { ledgerNetwork } from './network.ts';
import { consumerOfSequence, type LedgerTransaction, ledgerClosedAt, lookUpHashes } from './proofs.ts';
import {
  classifyResultCodes,
  classifySubmissionError,
  feeChargedFromXdr,
  type LedgerVerdict,
  type ResultCodes,
  resultCodesFromXdr,
} from './result-codes.ts';
import {
  type EnvelopeRef,
  findSubmission,
  noteRejection,
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
  /** The environment the intent is submitted in: its ledger, and the KEK its accounts are sealed under. */
  environment: Environment;
  /** The intent being built: its envelopes carry its nonce (intentNonce), so no two intents' are alike. */
  intentId: string;
  networkPassphrase: string;
  now: Date;
  /** 1 for an intent's first envelope, +1 for each replacement. */
  attempt: number;
  /**
   * 1, +1 each time a node refused an envelope for its fee or its queue (a same-sequence replacement):
   * builders set the fee with `baseFeeFor(ctx.feeLevel)`. A replacement of an envelope that was
   * superseded or expired keeps the level: its fee was not the problem.
   */
  feeLevel: number;
  /**
   * Set when the replacement must reuse this source account and sequence number, because the envelopes
   * it replaces may still land (then at most one of them can): build on `sourceAccountFor(ctx, …)`.
   */
  reuse?: { source: string; sequence: string };
  /**
   * The channel account leased to the intent (SubmitOptions.channel): build the transaction on
   * `sourceAccountFor(ctx, ctx.channel.account)`, make the wallet or funding account the source of each
   * operation, and sign with `ctx.channel.signer` as well.
   */
  channel?: { account: Account; signer: { publicKey: string; sealedSecret: SealedSecret } };
}

/**
 * The account a builder builds on: the loaded one, or, when the replacement must reuse a sequence number
 * (`ctx.reuse`), the same account one step before that number (TransactionBuilder adds one).
 */
export function sourceAccountFor<A extends { accountId(): string }>(
  ctx: BuildContext,
  loaded: A,
): A | Account {
  if (!ctx.reuse || ctx.reuse.source !== loaded.accountId()) return loaded;
  return new Account(ctx.reuse.source, (BigInt(ctx.reuse.sequence) - 1n).toString());
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
  /**
   * What the intent is for (a fingerprint, purpose.ts), kept on the record it first writes. A call
   * stating another purpose for an existing intent throws IntentConflict before building or submitting
   * anything; a call stating none is not checked.
   */
  purpose?: string;
  build: BuildTransaction;
  /** Build on a leased channel account (BuildContext.channel) rather than an account of the builder's. */
  channel?: boolean;
  /** The clock (time bounds, expiry). */
  now?: () => Date;
  /** Rounds (look up, maybe rebuild, submit) in one call before answering `pending`. Default 5. */
  maxRounds?: number;
  /** Pause after an unknown outcome before looking again. Default 1000 ms. */
  pauseMs?: number;
  /**
   * No round starts after this many ms of the call (a request inside a Lambda's timeout): the answer is
   * then `pending`, and a later call resumes from the record. A round takes at most one ledger request
   * of LEDGER_TIMEOUT_MS beyond it. Default: only maxRounds bounds the call.
   */
  budgetMs?: number;
  /**
   * The intent's record as the caller read it a moment ago (null: it had none), so it is not read again.
   * Safe however stale: every write is conditional on the record being as this call last saw it, and a
   * write that loses adopts what the other worker left.
   */
  known?: SubmissionRecord | null;
  /**
   * The caller logs the intent's outcome in a line of its own (a P2P payment's `Payment completed`), so
   * the run's `Ledger submission succeeded` is DEBUG, not a second INFO line of the same fact. A failure
   * stays INFO either way.
   */
  outcomeLogged?: boolean;
}

export type SubmissionOutcome =
  | {
      status: 'succeeded';
      intentId: string;
      hash: string | null;
      ledger: number | null;
      /** The fee it charged, in stroops, when the ledger's result said. */
      feeCharged?: string;
      attempt: number;
    }
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

/**
 * A number from 1 to 2^30 (a moment before 2004) drawn from the intent id, for an envelope's minTime: every
 * ledger has closed after it, so it never delays an envelope, and two intents' envelopes differ even when
 * everything else about them is alike (the same operations and memo, on the same channel and sequence
 * number, in the same second). A hash look-up then finds only the intent's own transaction.
 */
export const intentNonce = (intentId: string): number =>
  (Buffer.from(sha256(Buffer.from(intentId))).readUInt32BE(0) & 0x3fffffff) + 1;

/** Fee per operation in stroops: the minimum, doubled at each fee level (BuildContext.feeLevel), capped at 0.001 XLM. */
export const baseFeeFor = (attempt: number): string => String(Math.min(100 * 2 ** (attempt - 1), 10_000));

/**
 * Each transaction's hash, computed once: signing, wrapping in a fee bump and describing the envelope all
 * need it, and each computation copies the whole transaction through XDR (the SDK's `tx` getter is a
 * defensive copy), encodes it again and hashes it. A transaction is immutable but for its signatures,
 * which its hash does not cover.
 */
const hashes = new WeakMap<Transaction | FeeBumpTransaction, Buffer>();

/** The transaction's hash (tx.hash(): SHA-256 of its signature base, here through node:crypto). */
export function hashOf(tx: Transaction | FeeBumpTransaction): Buffer {
  let hash = hashes.get(tx);
  if (!hash) {
    hash = createHash('sha256').update(tx.signatureBase()).digest();
    hashes.set(tx, hash);
  }
  return hash;
}

/** Signs `tx` with each keypair over its one hash, as Transaction.sign does (which hashes it afresh). */
export function signOnce(tx: Transaction | FeeBumpTransaction, ...keypairs: Keypair[]): void {
  const hash = hashOf(tx);
  for (const keypair of keypairs) tx.signatures.push(keypair.signDecorated(hash));
}

/** Notes that `bump` wraps `inner`: the same transaction, so the same hash, whatever the signatures. */
export function notedInner(bump: FeeBumpTransaction, inner: Transaction): FeeBumpTransaction {
  hashes.set(bump.innerTransaction, hashOf(inner));
  return bump;
}

const innerOf = (tx: Transaction | FeeBumpTransaction): Transaction =>
  tx instanceof FeeBumpTransaction ? tx.innerTransaction : tx;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

type Step =
  | { outcome: SubmissionOutcome }
  /** The record to go on with; `adopted` when another worker's write put it there. */
  | { record: SubmissionRecord; adopted?: boolean }
  /** Nothing can be proven or built yet: look again after a pause. */
  | { record: SubmissionRecord; wait: true }
  /** The intent has no envelope yet and every channel is busy: try again after a pause. */
  | { busy: true };

/** A node's answer about one envelope: it lapses as soon as the record holds another envelope. */
interface Verdict {
  hash: string | null;
  verdict: LedgerVerdict;
  code: string;
}

function outcomeOf(record: SubmissionRecord): SubmissionOutcome {
  const { intentId, hash, attempt } = record;
  if (record.status === 'succeeded') {
    return {
      status: 'succeeded',
      intentId,
      hash,
      ledger: record.ledger ?? null,
      ...(record.feeCharged ? { feeCharged: record.feeCharged } : {}),
      attempt,
    };
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

/**
 * Why a transient error leaves an intent pending: a builder's own word when it has no cause (a wallet not
 * visible on the ledger yet), else what the ledger's failure says.
 */
export function unavailableVerdict(error: unknown): LedgerVerdict {
  if (error instanceof LedgerUnavailableError && error.cause === undefined)
    return { retryable: true, action: 'lookup', errorCode: 'LEDGER_NOT_READY', failureReason: error.message };
  return classifySubmissionError((error as Error).cause ?? error);
}

const isTransient = (error: unknown) =>
  error instanceof LedgerUnavailableError || error instanceof NetworkError;

/** Every hash the intent ever persisted, outer and inner. */
const hashesOf = (record: SubmissionRecord): string[] =>
  record.envelopes.flatMap((e) => [e.hash, ...(e.innerHash ? [e.innerHash] : [])]);

/** An existing intent serves the purpose it was recorded for: a caller stating another one is refused. */
function assertSamePurpose(record: SubmissionRecord, purpose: string | undefined): void {
  if (purpose !== undefined && record.purpose !== purpose) throw new IntentConflict(record.intentId);
}

/** A submission run: one call of submitOnce (or prepareSubmission). */
class SubmissionRun {
  readonly environment: Environment;
  readonly intentId: string;
  readonly purpose: string | undefined;
  readonly build: BuildTransaction;
  readonly useChannel: boolean;
  readonly now: () => Date;
  readonly networkPassphrase: string;
  /** The network's id (the hash of its passphrase): a channel's landed sequence is kept per network. */
  readonly networkId: string;
  /** The channel this run leased or renewed (its account), freed with the intent's others. */
  leased: string | undefined;
  readonly outcomeLogged: boolean;

  constructor(options: SubmitOptions) {
    const network = ledgerNetwork(options.environment);
    this.environment = options.environment;
    this.intentId = options.intentId;
    this.purpose = options.purpose;
    this.build = options.build;
    this.useChannel = options.channel === true;
    this.outcomeLogged = options.outcomeLogged === true;
    this.now = options.now ?? (() => new Date());
    this.networkPassphrase = network.networkPassphrase;
    this.networkId = hex(sha256(Buffer.from(network.networkPassphrase)));
  }

  log(
    message: string,
    record: SubmissionRecord | undefined,
    extra: Record<string, unknown> = {},
    level: 'info' | 'debug' = 'info',
  ) {
    logger[level](message, {
      intentId: this.intentId,
      environment: this.environment,
      hash: record?.hash,
      attempt: record?.attempt,
      ...extra,
    });
  }

  /** Refuses envelopes that could land at an unknown time, on another network, or unsigned. */
  describe(tx: Transaction | FeeBumpTransaction): EnvelopeRef & { envelopeXdr: string } {
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
      hash: hex(hashOf(tx)),
      ...(tx instanceof FeeBumpTransaction ? { innerHash: hex(hashOf(inner)) } : {}),
      source: inner.source,
      sequence: inner.sequence,
      maxTime,
      envelopeXdr: tx.toXDR(),
    };
  }

  /** Follows a lost conditional write: the record as another worker left it. */
  async adopt(result: WriteResult & { written: false }): Promise<Exclude<Step, { busy: true }>> {
    const current = result.current;
    if (!current) throw new Error(`Submission record of ${this.intentId} vanished`);
    // Another caller may have written the intent first, for something else.
    assertSamePurpose(current, this.purpose);
    this.log('Ledger submission taken over by another worker', current);
    if (current.status === 'submitting') return { record: current, adopted: true };
    // The writer may have crashed before freeing the channel.
    await this.releaseChannels(current);
    return { outcome: outcomeOf(current) };
  }

  /**
   * Frees the channels the intent holds once it settled (or built nothing): those its envelopes were built
   * on and the one leased in this call. With the hash of the intent's transaction a closed ledger holds,
   * its channel keeps that envelope's sequence number: the next holder builds above it even when its
   * account read lags behind the ledger.
   */
  async releaseChannels(record?: SubmissionRecord, landedHash?: string): Promise<void> {
    if (!this.useChannel) return;
    const envelope = landedHash
      ? record?.envelopes.find((e) => e.hash === landedHash || e.innerHash === landedHash)
      : undefined;
    const held = [...(this.leased ? [this.leased] : []), ...(record?.envelopes ?? []).map((e) => e.source)];
    await releaseChannels(
      this.environment,
      this.intentId,
      held,
      envelope
        ? { source: envelope.source, sequence: envelope.sequence, network: this.networkId }
        : undefined,
    );
  }

  /**
   * The channel to build on: the reused envelope's, its lease renewed, else the one the intent's last
   * envelope was built on if it still holds it, else one leased now. null when none is free, or the reused
   * one is no longer the intent's.
   */
  async channelFor(
    reuse: EnvelopeRef | undefined,
    last: EnvelopeRef | undefined,
    maxTime: number,
  ): Promise<BuildContext['channel'] | null> {
    const kept = reuse ?? last;
    const renewed = kept ? await renewLease(this.environment, kept.source, this.intentId, maxTime) : null;
    const lease = reuse || renewed ? renewed : await leaseChannel(this.environment, this.intentId, maxTime);
    if (!lease) return null;
    this.leased = lease.publicKey;
    // Claimed free after its last holder's transaction landed: its sequence number is known, not read.
    const sequence =
      lease.known?.network === this.networkId
        ? lease.known.sequence
        : sequenceToBuildOn(
            (await platformLedgerAccount(this.environment, lease.publicKey, 'channel')).sequenceNumber(),
            lease.landed,
            this.networkId,
          );
    return {
      account: new Account(lease.publicKey, sequence),
      signer: { publicKey: lease.publicKey, sealedSecret: lease.sealedSecret },
    };
  }

  /**
   * Builds an envelope and persists it before any submission: the first one, a replacement of envelopes
   * proven dead (`fresh`), or one that must reuse the source and sequence of those that may still land.
   */
  async newEnvelope(previous: SubmissionRecord | undefined, mode: 'fresh' | 'sameSequence'): Promise<Step> {
    const attempt = (previous?.attempt ?? 0) + 1;
    const now = this.now();
    const live = previous ? previous.envelopes.slice(previous.provenDead) : [];
    const reuse = mode === 'sameSequence' ? live[0] : undefined;
    if (
      mode === 'sameSequence' &&
      (!reuse || live.some((e) => e.source !== reuse.source || e.sequence !== reuse.sequence))
    ) {
      return previous ? { record: previous, wait: true } : { outcome: outcomeOf(previous as never) };
    }
    // The first write records what the intent is for; replacements keep it.
    const purpose = previous ? previous.purpose : this.purpose;
    const base = {
      environment: this.environment,
      intentId: this.intentId,
      attempt,
      ...(purpose !== undefined ? { purpose } : {}),
      createdAt: previous?.createdAt ?? now.toISOString(),
      updatedAt: now.toISOString(),
    };
    const expected = previous ? previous.hash : undefined;
    const feeLevel =
      (previous?.feeLevel ?? previous?.attempt ?? 0) + (mode === 'sameSequence' || !previous ? 1 : 0);
    const channel = this.useChannel
      ? await this.channelFor(reuse, previous?.envelopes.at(-1), timeBoundsFor(now).maxTime)
      : undefined;
    if (channel === null) {
      this.log('Every ledger channel is busy: waiting', previous);
      return previous ? { record: previous, wait: true } : { busy: true };
    }
    let tx: Transaction | FeeBumpTransaction | null;
    try {
      tx = await this.build({
        environment: this.environment,
        intentId: this.intentId,
        networkPassphrase: this.networkPassphrase,
        now,
        attempt,
        feeLevel,
        ...(reuse ? { reuse: { source: reuse.source, sequence: reuse.sequence } } : {}),
        ...(channel ? { channel } : {}),
      });
    } catch (error) {
      // Nothing of the intent's can land on a channel it has just leased: free it for others.
      if (!previous) await this.releaseChannels();
      if (!(error instanceof LedgerRefusal)) throw error;
      // A refusal is the outcome only when nothing built before can still land.
      if (live.length > 0) return { record: previous as SubmissionRecord, wait: true };
      const record: SubmissionRecord = {
        ...base,
        status: 'failed',
        hash: null,
        envelopeXdr: null,
        maxTime: null,
        envelopes: previous?.envelopes ?? [],
        provenDead: previous?.envelopes.length ?? 0,
        errorCode: error.errorCode,
        failureReason: error.failureReason,
      };
      const written = await replaceSubmission(record, expected);
      this.log('Ledger submission refused before submitting', record, { errorCode: error.errorCode });
      if (!written.written) return this.adopt(written);
      await this.releaseChannels(record);
      return { outcome: outcomeOf(record) };
    }
    if (tx === null) {
      // The ledger already holds what the intent wants (an account opened, say): nothing to submit.
      const record: SubmissionRecord = {
        ...base,
        status: 'succeeded',
        hash: null,
        envelopeXdr: null,
        maxTime: null,
        envelopes: previous?.envelopes ?? [],
        provenDead: previous?.provenDead ?? 0,
        ledger: null,
      };
      const written = await replaceSubmission(record, expected);
      this.log('Ledger already in the wanted state: nothing submitted', record);
      if (!written.written) return this.adopt(written);
      await this.releaseChannels(record);
      return { outcome: outcomeOf(record) };
    }
    const { envelopeXdr, ...ref } = this.describe(tx);
    if (channel && ref.source !== channel.account.accountId()) {
      throw new TypeError(`Refusing to submit ${this.intentId}: not built on its channel account`);
    }
    if (reuse && (ref.source !== reuse.source || ref.sequence !== reuse.sequence)) {
      this.log('Ledger envelope kept: the replacement would not reuse its sequence number', previous);
      return { record: previous as SubmissionRecord, wait: true };
    }
    const record: SubmissionRecord = {
      ...base,
      status: 'submitting',
      hash: ref.hash,
      ...(ref.innerHash ? { innerHash: ref.innerHash } : {}),
      envelopeXdr,
      maxTime: ref.maxTime,
      envelopes: [...(previous?.envelopes ?? []), ref],
      feeLevel,
      provenDead: mode === 'fresh' ? (previous?.envelopes.length ?? 0) : (previous?.provenDead ?? 0),
    };
    const written = await replaceSubmission(record, expected);
    if (!written.written) return this.adopt(written);
    // A step, not an outcome: the outcome's line names the hash that landed.
    this.log('Ledger envelope persisted', record, { replaces: previous?.hash ?? null, mode }, 'debug');
    return { record };
  }

  /**
   * Whether every envelope that might still land is proven dead (see proofs.ts), or one of them turns
   * out to be in the ledger after all (a source history newer than the look-ups).
   */
  async proveDead(
    record: SubmissionRecord,
    ingestedUpTo: number | null,
  ): Promise<boolean | LedgerTransaction> {
    const ours = new Set(hashesOf(record));
    const closedAt = ingestedUpTo === null ? null : await ledgerClosedAt(this.environment, ingestedUpTo);
    for (const envelope of record.envelopes.slice(record.provenDead)) {
      if (closedAt !== null && closedAt > envelope.maxTime) continue;
      const consumer = await consumerOfSequence(this.environment, envelope.source, envelope.sequence);
      if (!consumer) return false;
      if (ours.has(consumer.hash) || (consumer.innerHash && ours.has(consumer.innerHash))) return consumer;
    }
    return true;
  }

  /** After any doubt: look every hash up, then decide from proof alone what may happen next. */
  async resolve(record: SubmissionRecord, verdict: Verdict | null): Promise<Step> {
    const look = await lookUpHashes(this.environment, hashesOf(record));
    if (look.found) return this.settleFound(record, look.found);
    const dead = await this.proveDead(record, look.ingestedUpTo);
    if (typeof dead === 'object') return this.settleFound(record, dead);
    if (dead) {
      const rejection =
        verdict?.verdict.action === 'fail'
          ? verdict.verdict
          : record.rejection?.hash === record.hash
            ? record.rejection
            : undefined;
      if (rejection) {
        // The node's rejection stands: nothing of the intent's is on the ledger or can ever be.
        return this.settle(record, {
          status: 'failed',
          hash: record.hash,
          errorCode: rejection.errorCode,
          failureReason: rejection.failureReason,
        });
      }
      this.log('Ledger envelopes proven dead: building a new one', record);
      return this.newEnvelope(record, 'fresh');
    }
    // A node said this envelope cannot land as it is (its fee, its queue's expected close time):
    // a replacement on the same sequence number is safe while the old one might still land.
    if (verdict?.verdict.action === 'rebuild' && verdict.code !== 'tx_bad_seq') {
      return this.newEnvelope(record, 'sameSequence');
    }
    return { record };
  }

  /** Settles the intent; `landed` when the settlement is a transaction in a closed ledger. */
  async settle(
    record: SubmissionRecord,
    settlement: Settlement,
    landed = false,
  ): Promise<Exclude<Step, { busy: true }>> {
    const written = await settleSubmission(
      this.environment,
      this.intentId,
      record.hash,
      settlement,
      this.now(),
    );
    if (!written.written) return this.adopt(written);
    const settled: SubmissionRecord = { ...record, ...settlement, updatedAt: this.now().toISOString() };
    await this.releaseChannels(record, landed && settlement.hash ? settlement.hash : undefined);
    this.log(
      `Ledger submission ${settlement.status}`,
      settled,
      settlement.status === 'failed' ? { errorCode: settlement.errorCode } : {},
      settlement.status === 'succeeded' && this.outcomeLogged ? 'debug' : 'info',
    );
    return { outcome: outcomeOf(settled) };
  }

  /** A result in a closed ledger: the intent's outcome. */
  settleFound(record: SubmissionRecord, found: LedgerTransaction): Promise<Step> {
    if (found.successful) {
      return this.settle(
        record,
        { status: 'succeeded', hash: found.hash, ledger: found.ledger, ...feeChargedOf(found.resultXdr) },
        true,
      );
    }
    let verdict: LedgerVerdict = classifyResultCodes({ transaction: 'tx_failed' });
    try {
      if (found.resultXdr) verdict = classifyResultCodes(resultCodesFromXdr(found.resultXdr));
    } catch {
      // an undecodable result: the generic tx_failed verdict stands
    }
    return this.settle(
      record,
      {
        status: 'failed',
        hash: found.hash,
        errorCode: verdict.errorCode,
        failureReason: verdict.failureReason,
      },
      true,
    );
  }
}

/** The fee a landed transaction's result says it charged, when there is a result to read. */
function feeChargedOf(resultXdr: string | undefined): { feeCharged?: string } {
  try {
    return resultXdr ? { feeCharged: feeChargedFromXdr(resultXdr) } : {};
  } catch {
    return {}; // an undecodable result: the fee is not known, the outcome stands
  }
}

/** Nothing was built: every channel account stayed busy. Retry later (an SQS redelivery). */
const channelsBusy = (intentId: string): SubmissionOutcome => ({
  status: 'pending',
  intentId,
  hash: null,
  attempt: 0,
  errorCode: 'LEDGER_CHANNELS_BUSY',
  failureReason: 'Every ledger channel account is busy; nothing was sent.',
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The result code behind a submission error (`tx_bad_seq`), for verdicts tied to their envelope. */
function codeOf(error: unknown): string {
  const extras = (error as { response?: { data?: { extras?: { result_codes?: ResultCodes } } } }).response
    ?.data?.extras?.result_codes;
  return extras?.inner_transaction ?? extras?.transaction ?? '';
}

/**
 * Builds and persists the intent's envelope without submitting it (the first half of submitOnce), or
 * returns the intent's record if it has one. For callers that need the hash before submitting.
 */
export async function prepareSubmission(
  options: SubmitOptions,
): Promise<SubmissionRecord | SubmissionOutcome> {
  const existing = await findSubmission(options.environment, options.intentId);
  if (existing) {
    assertSamePurpose(existing, options.purpose);
    return existing;
  }
  const step = await new SubmissionRun(options).newEnvelope(undefined, 'fresh');
  if ('busy' in step) return channelsBusy(options.intentId);
  return 'outcome' in step ? step.outcome : step.record;
}

/** Sends the intent's transaction to the ledger at most once; see the top of this file. */
export async function submitOnce(options: SubmitOptions): Promise<SubmissionOutcome> {
  const run = new SubmissionRun(options);
  const maxRounds = options.maxRounds ?? 5;
  const pauseMs = options.pauseMs ?? 1000;

  let record =
    options.known === undefined
      ? await findSubmission(options.environment, options.intentId)
      : (options.known ?? undefined);
  if (record) assertSamePurpose(record, options.purpose);
  if (record && record.status !== 'submitting') return outcomeOf(record);
  // A record in flight may or may not have reached the ledger (a crash, a timeout): look before acting.
  let doubt = record !== undefined;
  let verdict: Verdict | null = null;
  let lastVerdict: LedgerVerdict | undefined;
  let busy = false;

  const started = performance.now();
  for (let round = 1; round <= maxRounds; round++) {
    if (round > 1 && options.budgetMs !== undefined && performance.now() - started > options.budgetMs) break;
    try {
      let step: Step | undefined;
      if (!record) step = await run.newEnvelope(undefined, 'fresh');
      else if (doubt) step = await run.resolve(record, verdict?.hash === record.hash ? verdict : null);
      if (step) {
        if ('outcome' in step) return step.outcome;
        if ('busy' in step) {
          busy = true;
          await pause(pauseMs);
          continue;
        }
        busy = false;
        record = step.record;
        if ('adopted' in step && step.adopted) {
          doubt = true;
          continue; // another worker's envelope: look it up in the next round
        }
        if ('wait' in step) {
          await pause(pauseMs);
          continue;
        }
      }
      if (!record) continue;
      try {
        // As persisted: the envelope is submitted from its XDR, never decoded and encoded again.
        const response = await submitEnvelope(run.environment, record.envelopeXdr ?? '');
        const settled = await run.settle(
          record,
          {
            status: 'succeeded',
            hash: response.hash,
            ledger: response.ledger,
            ...feeChargedOf(response.resultXdr),
          },
          true,
        );
        if ('outcome' in settled) return settled.outcome;
        record = settled.record;
        doubt = true;
      } catch (error) {
        const classified = classifySubmissionError(error);
        lastVerdict = classified;
        verdict = { hash: record.hash, verdict: classified, code: codeOf(error) };
        doubt = true;
        run.log('Ledger submission not confirmed', record, {
          errorCode: classified.errorCode,
          action: classified.action,
        });
        if (classified.action === 'fail' && record.hash) {
          // Kept on the record: it becomes the outcome once every envelope is proven dead, whichever
          // call gets there (a rejection alone may be one node's view of its own queue).
          const { errorCode, failureReason } = classified;
          await noteRejection(
            run.environment,
            run.intentId,
            record.hash,
            { errorCode, failureReason },
            run.now(),
          );
        }
        // A rebuild is decided in the next round, from proof; anything else waits a moment first.
        if (classified.action !== 'rebuild') await pause(pauseMs);
      }
    } catch (error) {
      if (!isTransient(error)) throw error;
      lastVerdict = unavailableVerdict(error);
      doubt = record !== undefined;
      run.log('Ledger unavailable during submission', record, { errorCode: lastVerdict.errorCode });
      await pause(pauseMs);
    }
  }
  const pending = record ? outcomeOf(record) : undefined;
  if (busy) return channelsBusy(options.intentId);
  return {
    status: 'pending',
    intentId: options.intentId,
    hash: pending?.hash ?? null,
    attempt: pending?.attempt ?? 0,
    errorCode: lastVerdict?.errorCode ?? 'LEDGER_PENDING',
    failureReason: lastVerdict?.failureReason ?? 'The transaction is not settled yet.',
  };
}
