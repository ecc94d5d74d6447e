// The read side of the API: Horizon's GET endpoints over the ledger's state and history.
import { StrKey } from '@stellar/stellar-sdk';
import { toStroops } from './amounts.ts';
import { checkAsset, parseCanonicalAsset } from './assets.ts';
import {
  type Cursor,
  type EffectRecord,
  type OperationRecord,
  type PageQuery,
  parsePageQuery,
  selectPage,
  type TransactionRecord,
} from './history.ts';
import { findStrictSendPaths } from './pools.ts';
import { badRequest, notFound, type Problem } from './problems.ts';
import {
  accountResource,
  effectResource,
  feeStatsResource,
  ledgerResource,
  liquidityPoolResource,
  operationResource,
  pageResource,
  pathResource,
  rootResource,
  transactionResource,
} from './resources.ts';
import type { LedgerHeader } from './state.ts';
import type { LedgerAsset } from './types.ts';
import type { LedgerView } from './view.ts';

export type Reply = { status: 200; body: unknown } | { status: number; problem: Problem };

const ok = (body: unknown): Reply => ({ status: 200, body });
const fail = (problem: Problem): Reply => ({ status: problem.status, problem });

const PAYMENT_TYPES = new Set([
  'createAccount',
  'payment',
  'pathPaymentStrictSend',
  'pathPaymentStrictReceive',
]);

/** Which records a history collection holds, before paging. */
interface Scope {
  transactions: (record: TransactionRecord) => boolean;
  operations: (record: OperationRecord) => boolean;
  effects: (record: EffectRecord) => boolean;
  /** Failed transactions (and their operations) count only when asked for, or when scoped to one transaction. */
  failedByDefault: boolean;
}

const everything: Scope = {
  transactions: () => true,
  operations: () => true,
  effects: () => true,
  failedByDefault: false,
};

function collection(
  ledger: LedgerView,
  base: string,
  url: URL,
  kind: string,
  scope: Scope,
): Reply | undefined {
  const query = parsePageQuery(url.searchParams);
  if ('invalid' in query) return fail(badRequest(query.invalid, query.reason));
  const includeFailed = scope.failedByDefault || url.searchParams.get('include_failed') === 'true';
  // Horizon's `join=transactions`: each operation carries the transaction that made it (its memo, say).
  const join = url.searchParams.get('join');
  if (join !== null && join !== 'transactions') return fail(badRequest('join', 'join must be transactions'));
  const history = ledger.history;
  const page = <T>(
    records: readonly T[],
    cursorOf: (r: T) => Cursor,
    render: (r: T) => Record<string, unknown>,
  ) =>
    ok(
      pageResource(
        base,
        url.pathname,
        query,
        selectPage(records, cursorOf, query).map(render),
        extraParams(url),
      ),
    );
  switch (kind) {
    case 'transactions':
      return page(
        history.transactions.filter((r) => (includeFailed || r.successful) && scope.transactions(r)),
        (r) => [r.id, 0],
        (r) => transactionResource(base, r),
      );
    case 'operations':
    case 'payments':
      return page(
        history.operations.filter(
          (r) =>
            (includeFailed || r.transaction.successful) &&
            (kind === 'operations' || PAYMENT_TYPES.has(r.op.body.type)) &&
            scope.operations(r),
        ),
        (r) => [r.id, 0],
        (r) => ({
          ...operationResource(base, r),
          ...(join ? { transaction: transactionResource(base, r.transaction) } : {}),
        }),
      );
    case 'effects':
      return page(
        history.effects.filter(scope.effects),
        (r) => [r.operation.id, r.order],
        (r) => effectResource(base, r),
      );
    default:
      return undefined;
  }
}

/** Query parameters other than paging ones, kept in the self/next/prev links. */
function extraParams(url: URL): Record<string, string> {
  const extra: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (key !== 'cursor' && key !== 'limit' && key !== 'order') extra[key] = value;
  }
  return extra;
}

function ledgersPage(ledger: LedgerView, base: string, url: URL): Reply {
  const query: PageQuery | { invalid: string; reason: string } = parsePageQuery(url.searchParams);
  if ('invalid' in query) return fail(badRequest(query.invalid, query.reason));
  const cursorOf = (header: LedgerHeader): Cursor => [BigInt(header.sequence) << 32n, 0];
  const records = selectPage(ledger.state.headers, cursorOf, query).map((h) =>
    ledgerResource(base, h, ledger.state),
  );
  return ok(pageResource(base, url.pathname, query, records));
}

function sourceAssetOf(params: URLSearchParams): LedgerAsset | Problem {
  const type = params.get('source_asset_type');
  if (type === 'native') return 'native';
  if (type !== 'credit_alphanum4' && type !== 'credit_alphanum12') {
    return badRequest('source_asset_type', 'must be native, credit_alphanum4 or credit_alphanum12');
  }
  try {
    const asset = checkAsset({
      code: params.get('source_asset_code') ?? '',
      issuer: params.get('source_asset_issuer') ?? '',
    });
    const length = asset === 'native' ? 0 : asset.code.length;
    if ((type === 'credit_alphanum4') !== length <= 4)
      return badRequest('source_asset_code', 'code does not fit the type');
    return asset;
  } catch (error) {
    return badRequest('source_asset_code', error instanceof Error ? error.message : 'invalid asset');
  }
}

function strictSendPaths(ledger: LedgerView, url: URL): Reply {
  const params = url.searchParams;
  const source = sourceAssetOf(params);
  if (typeof source === 'object' && 'status' in source) return fail(source);
  let amount: bigint;
  try {
    amount = toStroops(params.get('source_amount') ?? '');
  } catch {
    return fail(badRequest('source_amount', 'must be a positive amount with at most 7 decimal places'));
  }
  if (amount <= 0n) return fail(badRequest('source_amount', 'must be positive'));
  const assetsParam = params.get('destination_assets');
  const accountParam = params.get('destination_account');
  if ((assetsParam === null) === (accountParam === null)) {
    return fail(
      badRequest('destination_assets', 'exactly one of destination_assets and destination_account'),
    );
  }
  let destinations: LedgerAsset[];
  if (assetsParam !== null) {
    try {
      destinations = assetsParam.split(',').filter(Boolean).map(parseCanonicalAsset);
    } catch (error) {
      return fail(badRequest('destination_assets', error instanceof Error ? error.message : 'invalid asset'));
    }
  } else {
    // The assets the destination can hold: XLM and its trustlines (none for an unknown account).
    const account = ledger.state.account(accountParam ?? '');
    destinations = account ? ['native', ...[...account.trustlines.values()].map((line) => line.asset)] : [];
  }
  const records = findStrictSendPaths(ledger.state.entries.pools, source, amount, destinations).map((found) =>
    pathResource(source, amount, found),
  );
  const self = { href: url.toString() };
  return ok({ _links: { self, next: self, prev: self }, _embedded: { records } });
}

/** Answers one GET from what this Horizon has ingested; undefined when no route matches. */
export function routeGet(ledger: LedgerView, base: string, url: URL): Reply | undefined {
  const [resource, id, sub, extra] = url.pathname.split('/').filter(Boolean);
  if (extra !== undefined && !(resource === 'accounts' && sub === 'data')) return undefined;
  const state = ledger.state;
  const history = ledger.history;
  switch (resource) {
    case undefined:
      return ok(rootResource(base, state, ledger.networkPassphrase, ledger.coreLatest));
    case 'fee_stats':
      return id === undefined ? ok(feeStatsResource(state, history.transactions.slice(-50))) : undefined;
    case 'ledgers': {
      if (id === undefined) return ledgersPage(ledger, base, url);
      const header = state.headers.find((h) => String(h.sequence) === id);
      if (!header) return fail(notFound());
      if (sub === undefined) return ok(ledgerResource(base, header, state));
      return collection(ledger, base, url, sub, {
        transactions: (r) => r.ledger === header.sequence,
        operations: (r) => r.transaction.ledger === header.sequence,
        effects: (r) => r.operation.transaction.ledger === header.sequence,
        failedByDefault: false,
      });
    }
    case 'accounts': {
      if (id === undefined) return undefined;
      if (!StrKey.isValidEd25519PublicKey(id))
        return fail(badRequest('account_id', 'not a valid account id'));
      if (sub === undefined) {
        const account = state.account(id);
        return account ? ok(accountResource(base, account)) : fail(notFound());
      }
      // No account has data entries (ManageData is not supported).
      if (sub === 'data') return fail(notFound());
      return collection(ledger, base, url, sub, {
        transactions: (r) => r.participants.has(id),
        operations: (r) => r.participants.has(id),
        effects: (r) => r.spec.account === id,
        failedByDefault: false,
      });
    }
    case 'transactions': {
      if (id === undefined) return collection(ledger, base, url, 'transactions', everything);
      const record = history.transaction(id);
      if (!record) return fail(notFound());
      if (sub === undefined) return ok(transactionResource(base, record, id));
      return collection(ledger, base, url, sub, {
        transactions: (r) => r === record,
        operations: (r) => r.transaction === record,
        effects: (r) => r.operation.transaction === record,
        failedByDefault: true,
      });
    }
    case 'operations': {
      if (id === undefined) return collection(ledger, base, url, 'operations', everything);
      const record = /^\d+$/.test(id) ? history.operation(BigInt(id)) : undefined;
      if (!record) return fail(notFound());
      if (sub === undefined) return ok(operationResource(base, record));
      if (sub !== 'effects') return undefined;
      return collection(ledger, base, url, 'effects', {
        ...everything,
        effects: (r) => r.operation === record,
      });
    }
    case 'payments':
    case 'effects':
      return id === undefined ? collection(ledger, base, url, resource, everything) : undefined;
    case 'liquidity_pools': {
      if (id === undefined || sub !== undefined) return undefined;
      const pool = /^[0-9a-f]{64}$/.test(id) ? state.entries.pools.get(id) : undefined;
      return pool ? ok(liquidityPoolResource(base, pool)) : fail(notFound());
    }
    case 'paths':
      return id === 'strict-send' && sub === undefined ? strictSendPaths(ledger, url) : undefined;
    default:
      return undefined;
  }
}
