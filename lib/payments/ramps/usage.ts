// What an association has moved through a ramp connector, for its limits (limits.ts), kept so
// that concurrency cannot exceed a limit: one item per accepted ramp (its `sendAmount` and creation
// time) beside a head item whose version each new one moves. A submission reads the head, then the uses
// (one consistent query of one partition), checks the limits against them, and writes its use in one
// transaction with the head's version as it read it: of two concurrent submissions one commits, the
// other reads again, sees the first one's use, and is checked against it. A payment that fails having
// moved nothing or is refunded releases its use (the item is deleted); one lost between the use and the
// record (a crash) keeps counting until it leaves the window: the error is on the safe side.
//
// A use is keyed by its record, so two requests under one transactionId meet on it. It belongs to the
// request that wrote it (its claim id): while that request may still run, another under the same
// transactionId is answered 409 in progress (before it claims its quote; service.ts accept() answers a
// replay instead once the record is written), and only the owner gives the use back when its own later
// checks fail. Without that, a twin found the other's use, skipped the limit check, and on failing
// deleted the use the other's payment needed.
import { randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import { absent, holds } from '../../db/conditions.ts';
import { entity } from '../../db/entity.ts';
import { deleteIf, deleteItem, getRecord, readAllPages, transact } from '../../db/items.ts';
import { rampUseKeys, tenantOf, tenantScope } from '../../db/keys.ts';
import { type FieldError, serviceUnavailable, unprocessable } from '../../http/problem.ts';
import type { Environment, Tenant } from '../../tenant.ts';
import { TransactionIdInProgress } from '../idempotency.ts';
import { limitErrors, type RampLimit, type WindowUse } from './limits.ts';

/** The longest window a limit has (MONTHLY); older uses are no longer read, and expire by TTL. */
const LONGEST_WINDOW_SECONDS = 2_592_000;
/** Rounds of read, check, write before the submission gives up (each lost round: another one won). */
const ATTEMPTS = 40;
/**
 * How long a request may hold a use whose record it has not written: past any request's life (the
 * payments function times out after 25 s, API Gateway after 30 s). An older one's request died.
 */
const REQUEST_LIFETIME_MS = 60_000;

interface RampUse {
  environment: Environment;
  associationId: string;
  connectorId: string;
  transactionRecordId: string;
  amount: string;
  createdAt: string;
  expiresAt: number;
  /** The request holding the use until its record exists; only it may give the use back. */
  claimId: string;
  claimedAt: string;
}

const useEntity = entity<RampUse>({
  type: 'rampUse',
  keyOf: (r) => rampUseKeys.use(tenantOf(r), r.connectorId, r.transactionRecordId),
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The head's version and the uses of the longest window, read consistently: the head first, so every
 * use written up to that version is in the query (read the other way round, a use written between the
 * two reads would be missed and its version taken as seen).
 */
async function readUses(tenant: Tenant, connectorId: string, now: Date) {
  const head = await getRecord<{ version: number }>(rampUseKeys.head(tenant, connectorId), {
    consistent: true,
  });
  const uses = await readAllPages<RampUse>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': tenantScope(tenant),
      ':prefix': rampUseKeys.usePrefix(connectorId),
    },
    ConsistentRead: true,
  });
  const since = now.getTime() - LONGEST_WINDOW_SECONDS * 1000;
  return { version: head?.version ?? 0, uses: uses.filter((u) => Date.parse(u.createdAt) >= since) };
}

/** The uses within the `durationSeconds` before `now`: amount and count. */
const usedWithin =
  (uses: RampUse[], now: Date) =>
  (durationSeconds: number): WindowUse => {
    const from = now.getTime() - durationSeconds * 1000;
    const inWindow = uses.filter((u) => Date.parse(u.createdAt) >= from);
    return {
      amount: inWindow.reduce((sum, u) => sum.plus(u.amount), new BigNumber(0)),
      count: inWindow.length,
    };
  };

/** A use this request holds: given back if the request's own later checks fail. */
export interface RampClaim {
  release(): Promise<void>;
}

/**
 * Reserves `amount` of the connector's limits for the record, or throws 422 with `limitErrors`' errors
 * (on `amount`) when the uses in the windows leave no room, or 409 when another request under the same
 * transactionId holds the record's use (see above). With `twins: 'share'` (a provider's receipt, whose
 * copies all decide one record the same way, and only one of them writes it) a use held for the record
 * is this request's too.
 */
export async function reserveRampUse(
  tenant: Tenant,
  connectorId: string,
  transactionRecordId: string,
  amount: string,
  now: Date,
  limitErrors: (used: (durationSeconds: number) => WindowUse) => FieldError[],
  twins: 'conflict' | 'share' = 'conflict',
): Promise<RampClaim> {
  const key = rampUseKeys.use(tenant, connectorId, transactionRecordId);
  const claimId = randomUUID();
  const claim: RampClaim = {
    release: async () => {
      await deleteIf(key, holds({ claimId }));
    },
  };
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const { version, uses } = await readUses(tenant, connectorId, now);
    const held = uses.find((u) => u.transactionRecordId === transactionRecordId);
    if (held) {
      if (twins === 'share') return claim;
      if (now.getTime() - Date.parse(held.claimedAt) < REQUEST_LIFETIME_MS)
        throw new TransactionIdInProgress();
      // Its request died before writing the record: the use is given back, and this one checked afresh.
      await deleteIf(key, holds({ claimId: held.claimId }));
      continue;
    }
    const errors = limitErrors(usedWithin(uses, now));
    if (errors.length) throw unprocessable('The payment is over a limit.', errors);
    const written = await transact([
      {
        update: {
          key: rampUseKeys.head(tenant, connectorId),
          changes: { add: { version: 1 } },
          condition: version === 0 ? absent : holds({ version }),
        },
      },
      {
        put: {
          entity: useEntity as never,
          record: {
            environment: tenant.environment,
            associationId: tenant.associationId,
            connectorId,
            transactionRecordId,
            amount,
            createdAt: now.toISOString(),
            expiresAt: Math.floor(now.getTime() / 1000) + LONGEST_WINDOW_SECONDS + 86_400,
            claimId,
            claimedAt: now.toISOString(),
          } satisfies RampUse,
          condition: absent,
        },
      },
    ]);
    if (written.outcome === 'written') return claim;
    // Another submission moved the head first: read again, its use included.
    await pause(5 + Math.random() * 20 * Math.min(attempt + 1, 5));
  }
  throw serviceUnavailable('Too many payments through this connector at once; try again in a moment.');
}

/** What a ramp request reserves: `amount` through the connector, against `limits` (limits.ts). */
export interface RampUseRequest {
  connector: { id: string; acceptedAsset: string };
  transactionRecordId: string;
  amount: string;
  limits: RampLimit[];
  now: Date;
}

/**
 * Reserves the record's use (reserveRampUse), then runs the request's remaining `checks`; the use is
 * given back if one of them fails, so a refused request counts toward no limit.
 */
export async function reserveRampUseFor(
  tenant: Tenant,
  request: RampUseRequest,
  checks: () => Promise<void>,
): Promise<void> {
  const { connector, transactionRecordId, amount, limits, now } = request;
  const use = await reserveRampUse(tenant, connector.id, transactionRecordId, amount, now, (used) =>
    limitErrors(limits, new BigNumber(amount), connector.acceptedAsset, used),
  );
  try {
    await checks();
  } catch (error) {
    await use.release();
    throw error;
  }
}

/** Gives the record's use back (failed having moved nothing, or refunded); repeating it is harmless. */
export async function releaseRampUse(tenant: Tenant, connectorId: string, transactionRecordId: string) {
  await deleteItem(rampUseKeys.use(tenant, connectorId, transactionRecordId));
}
