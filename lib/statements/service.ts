// A wallet's statement (docs/decisions/statements.md): its settled lines for one asset over a range, from the
// ledger. The wallet's lines are first caught up with the ledger (ledger-sync.ts: only what closed since the
// last read), then one page is read from the table, with the balance before the range and at its end, and
// enriched from the records (describe.ts). Nothing here reads the ledger per line.
import { findRegistryAsset } from '../assets/service.ts';
import { tenantScope } from '../db/keys.ts';
import { queryPage } from '../db/paginate.ts';
import { type ExactNumber, exactNumber } from '../http/plain-json.ts';
import { notFound, Problem, serviceUnavailable, unprocessable } from '../http/problem.ts';
import { LedgerUnavailableError } from '../ledger/errors.ts';
import type { Tenant } from '../tenant.ts';
import { findWalletRecord } from '../wallets/lookups.ts';
import { describeLines } from './describe.ts';
import { assetKeyOf, syncStatement } from './ledger-sync.ts';
import { lastLineBefore, lineRangeQuery, type StatementLineRecord } from './repo.ts';
import type { StatementQuery } from './schema.ts';

/** How long a request may spend catching a wallet's lines up (the function's timeout leaves room). */
const SYNC_BUDGET_MS = 15_000;

/** An instant as the ledger writes close times: ISO 8601 to the second, in UTC. */
const toSecond = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Amounts on the wire are numbers (as on every resource), written from the lines' 7-place text. */
const amountOf = exactNumber;

export interface StatementLine {
  rowId: string;
  date: string;
  direction: 'credit' | 'debit';
  amount: ExactNumber;
  assetCode: string;
  runningBalance: ExactNumber;
  description: string;
  reference: string | null;
  transactionRecordId: string | null;
  transactionType: string | null;
  counterparty: string | null;
  stellarTxHash: string;
}

export interface Statement {
  walletId: string;
  assetCode: string;
  assetIssuer: string | null;
  startDate: string;
  endDate: string;
  openingBalance: ExactNumber;
  closingBalance: ExactNumber;
  data: StatementLine[];
  pagination: { nextCursor: string | null; hasMore: boolean };
}

async function caughtUp(tenant: Tenant, wallet: { walletId: string; publicKey: string }, to: string) {
  try {
    const sync = await syncStatement(tenant, wallet, SYNC_BUDGET_MS);
    // A long history is read over several requests: what is written stays, the next goes on from there.
    if (!sync.caughtUp && sync.lastClosedAt < to) {
      throw new Problem(503, 'The statement is still being read from the ledger; retry shortly.', {
        headers: { 'Retry-After': '1' },
      });
    }
  } catch (error) {
    if (error instanceof LedgerUnavailableError)
      throw serviceUnavailable('The ledger could not be read; the statement cannot be brought up to date.');
    throw error;
  }
}

export async function getStatement(tenant: Tenant, query: StatementQuery): Promise<Statement> {
  const { walletId, assetCode, limit, cursor } = query;
  const wallet = await findWalletRecord(tenant, walletId);
  if (!wallet) throw notFound(`No wallet ${walletId}.`, [{ field: 'walletId', message: 'is not found' }]);
  const registered = await findRegistryAsset(tenant.environment, assetCode);
  if (!registered) {
    throw unprocessable('Unknown asset.', [
      { field: 'assetCode', message: `${assetCode} is not in the asset registry` },
    ]);
  }
  const asset = assetKeyOf(
    registered.assetIssuer ? { code: registered.assetCode, issuer: registered.assetIssuer } : 'native',
  );
  // Lines close on whole seconds: the range's first and last second, and never past now.
  const from = toSecond(Math.ceil(query.startDate.first / 1000) * 1000);
  const to = toSecond(Math.floor(Math.min(query.endDate.last, Date.now()) / 1000) * 1000);
  await caughtUp(tenant, wallet, to);

  const [opening, closing, page] = await Promise.all([
    lastLineBefore(tenant, walletId, asset, { before: from }),
    lastLineBefore(tenant, walletId, asset, { atOrBefore: to }),
    queryPage(
      lineRangeQuery(tenant, walletId, asset, from, to),
      {
        limit,
        cursor,
        // Not bound to the end: a range that ends now is read to a later now by the next page, which
        // only adds lines after the cursor's.
        binding: { scope: `${tenantScope(tenant)}#${walletId}`, query: `statement:${asset}:${from}` },
      },
      (item) => ({ pk: item.pk, sk: item.sk }),
      (item) => item as unknown as StatementLineRecord,
    ),
  ]);
  const enrichment = await describeLines(tenant, walletId, page.data);
  const openingBalance = opening?.runningBalance ?? '0';
  return {
    walletId,
    assetCode: registered.assetCode,
    assetIssuer: registered.assetIssuer,
    startDate: from,
    endDate: to,
    openingBalance: amountOf(openingBalance),
    closingBalance: amountOf(closing?.runningBalance ?? '0'),
    data: page.data.map((line, i) => ({
      rowId: line.rowId,
      date: line.closedAt,
      direction: line.direction,
      amount: amountOf(line.amount),
      assetCode: registered.assetCode,
      runningBalance: amountOf(line.runningBalance),
      ...(enrichment[i] as (typeof enrichment)[number]),
      counterparty: line.counterparty,
      stellarTxHash: line.stellarTxHash,
    })),
    pagination: page.pagination,
  };
}
