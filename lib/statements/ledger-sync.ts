// Catching a wallet's statement up with the ledger: the ledger is the source of truth, so every balance
// movement Horizon reports for the wallet's account (effects: credits, debits, its opening) becomes a line,
// whether or not it came through this API (an outside account paying the wallet has no record). Each
// Horizon page of effects is read once in the wallet's life: its lines, with the running balance carried
// from the sync item, are written with the sync item's move (repo.ts appendLines), so a statement reads
// the table and asks Horizon only for what closed since the last read (one request when nothing did).
//
// A record is joined later, when a statement is read (describe.ts): the transaction's hash memo names it
// (lib/ledger/payments.ts memoOf), and the line keeps that id, whatever the record's state then.
import BigNumber from 'bignumber.js';
import { LEDGER_DECIMALS } from '../ledger/amounts.ts';
import {
  accountMovements,
  accountOperations,
  type LedgerAssetRef,
  type LedgerMovement,
  type LedgerOperationFacts,
} from '../ledger/reads.ts';
import type { Tenant } from '../tenant.ts';
import {
  appendLines,
  findStatementSync,
  type StatementLineRecord,
  type StatementSyncRecord,
} from './repo.ts';

/** Effects per Horizon read: each read's lines and the sync item fit one TransactWriteItems (100). */
const EFFECTS_PER_READ = 99;

export const assetKeyOf = (asset: LedgerAssetRef): string =>
  asset === 'native' ? 'native' : `${asset.code}:${asset.issuer}`;

/** The record id a hash memo holds (16 bytes of UUID, then zeros), else null. */
export function recordIdOfMemo(memoType: string, memo: string | null): string | null {
  if (memoType !== 'hash' || !memo) return null;
  const bytes = Buffer.from(memo, 'base64');
  if (bytes.length !== 32 || bytes.subarray(16).some((b) => b !== 0)) return null;
  const hex = bytes.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The operation's position in its transaction: the low 12 bits of its id (stellar's TOID). */
const operationIndexOf = (operationId: string) => Number(BigInt(operationId) & 0xfffn);

function lineOf(
  wallet: { tenant: Tenant; walletId: string },
  movement: LedgerMovement,
  operation: LedgerOperationFacts | undefined,
  runningBalance: string,
): StatementLineRecord {
  const counterparty = (movement.direction === 'credit' ? operation?.from : operation?.to) ?? null;
  return {
    ...wallet.tenant,
    walletId: wallet.walletId,
    asset: assetKeyOf(movement.asset),
    rowId: movement.effectId,
    closedAt: movement.closedAt,
    direction: movement.direction,
    amount: new BigNumber(movement.amount).toFixed(LEDGER_DECIMALS),
    runningBalance,
    stellarTxHash: operation?.transactionHash ?? '',
    operationIndex: operationIndexOf(movement.operationId),
    operationType: operation?.type ?? 'unknown',
    counterparty,
    memoRecordId: operation ? recordIdOfMemo(operation.memoType, operation.memo) : null,
  };
}

/** The lines of one page of movements, each asset's balance carried on from `balances` (which it moves). */
function linesOf(
  wallet: { tenant: Tenant; walletId: string },
  movements: LedgerMovement[],
  operations: Map<string, LedgerOperationFacts>,
  balances: Record<string, string>,
): StatementLineRecord[] {
  return movements.map((movement) => {
    const asset = assetKeyOf(movement.asset);
    const signed = new BigNumber(movement.amount).times(movement.direction === 'credit' ? 1 : -1);
    const balance = new BigNumber(balances[asset] ?? '0').plus(signed).toFixed(LEDGER_DECIMALS);
    balances[asset] = balance;
    return lineOf(wallet, movement, operations.get(movement.operationId), balance);
  });
}

export interface SyncOutcome {
  /** Whether every effect Horizon had was read (false: the budget ran out first). */
  caughtUp: boolean;
  /** The close time of the wallet's last line ('' when it has none). */
  lastClosedAt: string;
}

/**
 * Reads the wallet's effects after its sync cursor and writes their lines, page by page, until Horizon
 * has no more or `budgetMs` has passed (what was written stays: the next read goes on from there).
 */
export async function syncStatement(
  tenant: Tenant,
  wallet: { walletId: string; publicKey: string },
  budgetMs: number,
): Promise<SyncOutcome> {
  const started = Date.now();
  const owner = { tenant, walletId: wallet.walletId };
  let sync = await findStatementSync(tenant, wallet.walletId);
  for (;;) {
    const cursor = sync?.cursor ?? '';
    const page = await accountMovements(tenant.environment, wallet.publicKey, {
      cursor,
      limit: EFFECTS_PER_READ,
    });
    const lastClosedAt = sync?.lastClosedAt ?? '';
    if (!page.lastCursor) return { caughtUp: true, lastClosedAt };
    const first = page.movements[0];
    const last = page.movements.at(-1);
    const operations =
      first && last
        ? await accountOperations(tenant.environment, wallet.publicKey, first.operationId, last.operationId)
        : new Map<string, LedgerOperationFacts>();
    const balances = { ...(sync?.balances ?? {}) };
    const lines = linesOf(owner, page.movements, operations, balances);
    const next: StatementSyncRecord = {
      ...tenant,
      walletId: wallet.walletId,
      cursor: page.lastCursor,
      balances,
      lastClosedAt: last?.closedAt ?? lastClosedAt,
      syncedAt: new Date().toISOString(),
    };
    // Another reader moved the cursor first: its lines are these; go on from where it is.
    sync = (await appendLines(lines, next, cursor)) ? next : await findStatementSync(tenant, wallet.walletId);
    if (!page.full) return { caughtUp: true, lastClosedAt: sync?.lastClosedAt ?? '' };
    if (Date.now() - started > budgetMs) return { caughtUp: false, lastClosedAt: sync?.lastClosedAt ?? '' };
  }
}
