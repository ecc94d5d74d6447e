// Statement lines (docs/decisions/statements.md) as the ledger gave them, materialised per wallet
// (lib/db/keys.ts statementKeys), and the wallet's sync item: the Horizon cursor read up to and the balance
// of each asset there. Lines are written with the sync item's move in one transaction, conditional on the
// cursor the writer read, so two readers catching the same wallet up write the same lines once and the
// running balances never fork.
import { absent, holds } from '../db/conditions.ts';
import { entity } from '../db/entity.ts';
import { firstRecord, getRecord, transact } from '../db/items.ts';
import { statementKeys, tenantOf } from '../db/keys.ts';
import type { Environment, Tenant } from '../tenant.ts';

export interface StatementLineRecord {
  environment: Environment;
  associationId: string;
  walletId: string;
  /** `native` or `CODE:ISSUER`: the ledger's asset, whatever the registry calls it. */
  asset: string;
  /** The ledger's id of the movement (Horizon's effect id): the line's rowId. */
  rowId: string;
  /** The ledger close time, ISO 8601 UTC to the second. */
  closedAt: string;
  direction: 'credit' | 'debit';
  /** Decimal strings, 7 places, as the ledger keeps them. */
  amount: string;
  runningBalance: string;
  stellarTxHash: string;
  /** 1-based position of the operation in its transaction (a multi-transfer's leg is its operation). */
  operationIndex: number;
  operationType: string;
  /** The other side of the movement on the ledger, when the operation names one. */
  counterparty: string | null;
  /** The transaction record the transaction's hash memo names (lib/ledger/payments.ts memoOf), if any. */
  memoRecordId: string | null;
}

export interface StatementSyncRecord {
  environment: Environment;
  associationId: string;
  walletId: string;
  /** Horizon's paging token of the last effect read ('' before the first). */
  cursor: string;
  /** Balance per asset (`asset` as on lines) after the last line, in stroops as decimal strings. */
  balances: Record<string, string>;
  /** The close time of the last line, '' before the first. */
  lastClosedAt: string;
  syncedAt: string;
}

export const statementLineEntity = entity<StatementLineRecord>({
  type: 'statementLine',
  keyOf: (line) => statementKeys.line(tenantOf(line), line.walletId, line.asset, line.closedAt, line.rowId),
});

const statementSyncEntity = entity<StatementSyncRecord>({
  type: 'statementSync',
  keyOf: (sync) => statementKeys.sync(tenantOf(sync), sync.walletId),
});

export const findStatementSync = (tenant: Tenant, walletId: string) =>
  getRecord<StatementSyncRecord>(statementKeys.sync(tenant, walletId), { consistent: true });

/**
 * Writes `lines` (at most 99) and moves the sync item to `next`, if it still holds `previousCursor`
 * (absent for ''); false when another reader moved it first (its lines are the same ones).
 */
export async function appendLines(
  lines: StatementLineRecord[],
  next: StatementSyncRecord,
  previousCursor: string,
): Promise<boolean> {
  const outcome = await transact([
    ...lines.map((record) => ({ put: { entity: statementLineEntity as never, record } })),
    {
      put: {
        entity: statementSyncEntity as never,
        record: next,
        condition: previousCursor === '' ? absent : holds({ cursor: previousCursor }),
      },
    },
  ]);
  return outcome.outcome === 'written';
}

/** An asset's line bounds for close times in [from, to] (seconds, ISO with Z; both inclusive). */
function lineBounds(tenant: Tenant, walletId: string, asset: string, from: string, to: string) {
  const prefix = statementKeys.linePrefix(asset);
  return {
    pk: statementKeys.partition(tenant, walletId),
    // `#` follows every close time, `~` sorts after every rowId.
    lower: `${prefix}${from}#`,
    upper: `${prefix}${to}#~`,
    prefix,
  };
}

/** The query of an asset's lines in a range, oldest first, for queryPage. */
export function lineRangeQuery(tenant: Tenant, walletId: string, asset: string, from: string, to: string) {
  const { pk, lower, upper } = lineBounds(tenant, walletId, asset, from, to);
  return {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lower AND :upper',
    ExpressionAttributeValues: { ':pk': pk, ':lower': lower, ':upper': upper },
  };
}

/** The asset's last line closed before `before`, or at or before `atOrBefore` (opening and closing balances). */
export async function lastLineBefore(
  tenant: Tenant,
  walletId: string,
  asset: string,
  bound: { before: string } | { atOrBefore: string },
): Promise<StatementLineRecord | undefined> {
  const at = 'before' in bound ? bound.before : bound.atOrBefore;
  const { pk, lower, upper, prefix } = lineBounds(tenant, walletId, asset, at, at);
  return firstRecord<StatementLineRecord>({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
    ExpressionAttributeValues: { ':pk': pk, ':first': prefix, ':last': 'before' in bound ? lower : upper },
    ScanIndexForward: false,
  });
}
