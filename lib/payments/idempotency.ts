// Idempotent acceptance (Stripe's rules), the one place a payment's transactionId is honoured: the record
// id is derived from (environment, association, transactionId), so a replay finds the first record by
// key. The same route and request → 202 with that record, isIdempotent true, no record written; anything
// else under the same transactionId → 409. The conditional put of the record is the look-up: concurrent
// duplicates and replays race on it, one writes, the others are answered from what it wrote
// (ReturnValuesOnConditionCheckFailure), so a first request costs no read of its own. Each kind's checks (transfers.ts, multi-transfer.ts,
// ramps/offramp.ts, ramps/onramp.ts) run between the look-up and the put, and make its draft
// (hand-off.ts).
import { Problem } from '../http/problem.ts';
import { purposeOf } from '../ledger/purpose.ts';
import { logger } from '../log.ts';
import * as metrics from '../metrics.ts';
import type { Tenant } from '../tenant.ts';
import { annotate } from '../trace.ts';
import { type Draft, initiatedRecord, type PaymentOperation } from './hand-off.ts';
import { transactionRecordIdOf } from './record-ids.ts';
import { findTransaction, putTransaction, type TransactionRecord } from './repo.ts';
import { decimal } from './shared-checks.ts';

export interface Acceptance {
  transactionRecordId: string;
  status: 'accepted';
  intentId: string;
  isIdempotent: boolean;
  message: string;
}

const ACCEPTED =
  'Payment accepted; it settles on the ledger within seconds. Read its record for the outcome.';
const REPLAYED =
  'This transactionId was accepted before: the original payment is answered, nothing new was made.';

/** A member sent with the value its absence means: `notifyEmail: false` asks for what omitting it does. */
const defaults: Record<string, unknown> = { notifyEmail: false, notifyWhatsApp: false };

/**
 * The request as it is fingerprinted, one spelling per meaning: amounts as decimal strings, a null
 * reference or a default flag as absent. Ids arrive in lower case already (lib/http/uuid-field.ts).
 */
function canonicalRequest(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => {
      if (name === 'amount' && typeof value === 'number') return [name, decimal(value)];
      if (name === 'transfers' && Array.isArray(value))
        return [name, value.map((leg) => canonicalRequest(leg as Record<string, unknown>))];
      if (value === defaults[name]) return [name, undefined];
      return [name, value ?? undefined];
    }),
  );
}

function acceptanceOf(record: TransactionRecord, isIdempotent: boolean): Acceptance {
  return {
    transactionRecordId: record.transactionRecordId,
    status: 'accepted',
    intentId: record.intentId,
    isIdempotent,
    message: isIdempotent ? REPLAYED : ACCEPTED,
  };
}

/**
 * 409, as Stripe answers a request whose idempotency key another request is still using: a payment
 * under this transactionId is being accepted and has no record yet. Retried, the request gets the
 * other's record (a replay, or 409 for another body), or is accepted itself if the other failed.
 */
export class TransactionIdInProgress extends Problem {
  constructor() {
    super(409, 'Another request with this transactionId is still being processed.', {
      errors: [
        {
          field: 'transactionId',
          message: 'is being accepted by another request; retry in a moment for its outcome',
        },
      ],
    });
  }
}

function replayOf(existing: TransactionRecord, operation: PaymentOperation, fingerprint: string): Acceptance {
  if (existing.operation === operation && existing.requestFingerprint === fingerprint)
    return acceptanceOf(existing, true);
  throw new Problem(409, 'This transactionId was already used for another payment.', {
    errors: [
      {
        field: 'transactionId',
        message: 'was used with another route or body; send a new transactionId for a new payment',
      },
    ],
  });
}

/** Operations whose checks hold something for the record (ramps/usage.ts): they look for a replay first. */
const CHECKS_THAT_HOLD: ReadonlySet<PaymentOperation> = new Set(['payOfframp', 'payOnramp']);

export async function accept(
  tenant: Tenant,
  operation: PaymentOperation,
  body: { transactionId: string } & Record<string, unknown>,
  now: Date,
  check: () => Promise<Draft>,
  requestId?: string,
): Promise<Acceptance> {
  const transactionRecordId = transactionRecordIdOf(tenant, body.transactionId);
  // Every later line of the request names the record it is about (a replay's too).
  logger.appendKeys({ transactionRecordId });
  annotate({ transactionRecordId });
  const fingerprint = purposeOf({ operation, request: canonicalRequest(body) });
  const replayIfWritten = async () => {
    const written = await findTransaction(tenant, transactionRecordId, { consistent: true });
    return written ? replayOf(written, operation, fingerprint) : null;
  };
  // A first request is the common case: its record is absent, so reading it first would be a call
  // spent on nothing. The checks run first and the conditional put is the look-up; a replay is answered
  // from what the failed condition returns. Checks that hold something (a ramp reserves its use of the
  // connector's limits) look first instead: run for a record that exists, they would claim a use twice.
  if (CHECKS_THAT_HOLD.has(operation)) {
    const replay = await replayIfWritten();
    if (replay) return replay;
  }
  let draft: Draft;
  try {
    draft = await check();
  } catch (error) {
    // A replay is answered from the record, whatever has changed since (a wallet rejected, an asset
    // gone, the funds spent): a refusal is final only when no record holds this transactionId. The
    // request another one under it waited on (TransactionIdInProgress) may have written it since, too.
    const replay = await replayIfWritten();
    if (replay) return replay;
    throw error;
  }
  const record = initiatedRecord(
    tenant,
    draft,
    {
      transactionRecordId,
      operation,
      requestFingerprint: fingerprint,
      idempotencyKey: body.transactionId,
      ...(requestId ? { requestId } : {}),
    },
    now,
  );
  const written = await putTransaction(record);
  if (written.outcome === 'conditionFailed') return replayOf(written.current, operation, fingerprint);
  logger.info('Payment accepted', { transactionType: record.transactionType });
  metrics.countAccepted(record);
  return acceptanceOf(record, false);
}
