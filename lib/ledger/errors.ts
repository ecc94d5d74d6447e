// Typed ledger errors. None of them ever carries key material in its message.
import { type Problem, unprocessable } from '../http/problem.ts';

/** Horizon could not be reached or did not answer in time: retry later (balances show as null). */
export class LedgerUnavailableError extends Error {
  override name = 'LedgerUnavailableError';
  readonly retryable = true;
}

/**
 * A transaction that must not be built, decided before anything reaches the ledger (the source account
 * does not exist, say). `submitOnce` records it as the intent's failed outcome.
 */
export class LedgerRefusal extends Error {
  override name = 'LedgerRefusal';
  readonly errorCode: string;
  readonly failureReason: string;

  constructor(errorCode: string, failureReason: string) {
    super(`${errorCode}: ${failureReason}`);
    this.errorCode = errorCode;
    this.failureReason = failureReason;
  }
}

/**
 * Input the ledger adapter refuses outright (an amount with 8 decimals, a memo too long). Request
 * schemas refuse such input first; should one slip through, the caller gets a 422 naming the field,
 * never a 500.
 */
export class LedgerInputError extends Error {
  override name = 'LedgerInputError';
  readonly field: string;

  constructor(message: string, field: string) {
    super(message);
    this.field = field;
  }

  toProblem(): Problem {
    return unprocessable(`The ledger cannot take this ${this.field}: ${this.message}.`, [
      { field: this.field, message: this.message },
    ]);
  }
}

/** A sealed secret that cannot be opened: wrong key, tampered with, or sealed for another account. */
export { CustodyError } from '../secret-box.ts';

/**
 * An intent id used again for something else: its submission record was written for another purpose
 * (an Idempotency-Key sent again with another amount, say). Thrown before anything is built or
 * submitted, so the intent's own envelope is never touched.
 */
export class IntentConflict extends Error {
  override name = 'IntentConflict';
  readonly intentId: string;

  constructor(intentId: string) {
    super(`The intent ${intentId} is recorded for another purpose`);
    this.intentId = intentId;
  }
}
