// The ledger reads later features build on: strict-send path finding (swaps) and an account's
// payment history with Horizon's cursors (statements). Horizon's JSON through horizon-json.ts, with the
// queries the SDK's call builders send, so a function that only reads carries no Stellar SDK.
import type { Environment } from '../tenant.ts';
import { ledgerAmount } from './amounts.ts';
import { LedgerUnavailableError } from './errors.ts';
import { type HorizonPage, horizonGet } from './horizon-json.ts';
import type { LedgerAssetRef as CreditAsset } from './operations.ts';

/** An asset on the ledger: the native one, or a credit asset by code and issuer. */
export type LedgerAssetRef = 'native' | CreditAsset;

/** Horizon's canonical form of an asset in a query list: `native` or `CODE:ISSUER`. */
const canonical = (asset: LedgerAssetRef): string =>
  asset === 'native' ? 'native' : `${asset.code}:${asset.issuer}`;

/** The `<prefix>_asset_type/_code/_issuer` members that name one asset in a query. */
function assetQuery(prefix: string, asset: LedgerAssetRef): Record<string, string> {
  if (asset === 'native') return { [`${prefix}_asset_type`]: 'native' };
  return {
    [`${prefix}_asset_type`]: asset.code.length <= 4 ? 'credit_alphanum4' : 'credit_alphanum12',
    [`${prefix}_asset_code`]: asset.code,
    [`${prefix}_asset_issuer`]: asset.issuer,
  };
}

/** How Horizon names an asset in its records. */
interface HorizonAsset {
  asset_type: string;
  asset_code?: string;
  asset_issuer?: string;
}

interface HorizonPathRecord {
  destination_asset_type: string;
  destination_asset_code?: string;
  destination_asset_issuer?: string;
  destination_amount: string;
  path: HorizonAsset[];
}

/** Payment records are a union of shapes (create_account, payment, path payments): the members read here. */
interface HorizonPaymentRecord extends HorizonAsset {
  paging_token: string;
  type: string;
  transaction_hash: string;
  created_at: string;
  transaction_successful?: boolean;
  funder?: string;
  account?: string;
  starting_balance?: string;
  from?: string;
  to?: string;
  amount?: string;
}

const fromHorizonAsset = (type: string, code?: string, issuer?: string): LedgerAssetRef =>
  type === 'native' ? 'native' : { code: code ?? '', issuer: issuer ?? '' };

/** A collection read: a 404 (an unknown account, say) is as unavailable as any other failure. */
async function readPage<T>(
  environment: Environment,
  what: string,
  segments: string[],
  query: Record<string, string | undefined>,
): Promise<T[]> {
  const failure = `The ledger could not be read (${what})`;
  const page = await horizonGet<HorizonPage<T>>(environment, segments, query, failure);
  if (!page) throw new LedgerUnavailableError(`${failure}: Horizon answered 404`);
  return page._embedded.records;
}

export interface StrictSendPath {
  destinationAsset: LedgerAssetRef;
  /** What the destination would receive now, as a 7-place decimal string. */
  destinationAmount: string;
  /** Intermediate assets, in order (empty for a direct conversion). */
  path: LedgerAssetRef[];
}

/** Paths that turn exactly `sourceAmount` of `source` into one of `destinations`, best first. */
export async function strictSendPaths(
  environment: Environment,
  source: LedgerAssetRef,
  sourceAmount: string,
  destinations: LedgerAssetRef[],
): Promise<StrictSendPath[]> {
  const amount = ledgerAmount(sourceAmount);
  const records = await readPage<HorizonPathRecord>(
    environment,
    'strict-send paths',
    ['paths', 'strict-send'],
    {
      ...assetQuery('source', source),
      source_amount: amount,
      destination_assets: destinations.map(canonical).join(','),
    },
  );
  return records
    .map((r) => ({
      destinationAsset: fromHorizonAsset(
        r.destination_asset_type,
        r.destination_asset_code,
        r.destination_asset_issuer,
      ),
      destinationAmount: r.destination_amount,
      path: r.path.map((p) => fromHorizonAsset(p.asset_type, p.asset_code, p.asset_issuer)),
    }))
    .sort((a, b) => Number(b.destinationAmount) - Number(a.destinationAmount));
}

export interface PaymentHistoryPage {
  records: Array<{
    /** Horizon's paging token: pass it back as `cursor` to continue after this record. */
    pagingToken: string;
    type: string;
    transactionHash: string;
    createdAt: string;
    successful: boolean;
    from?: string;
    to?: string;
    amount?: string;
    asset?: LedgerAssetRef;
  }>;
  /** The cursor of the next page, or null when this page is the last. */
  nextCursor: string | null;
}

/** One page of the payments (create_account, payment, path payments) touching an account. */
export async function accountPayments(
  environment: Environment,
  publicKey: string,
  options: { cursor?: string; limit?: number; order?: 'asc' | 'desc' } = {},
): Promise<PaymentHistoryPage> {
  const limit = options.limit ?? 50;
  const page = await readPage<HorizonPaymentRecord>(
    environment,
    'account payments',
    ['accounts', publicKey, 'payments'],
    { order: options.order ?? 'asc', limit: String(limit), cursor: options.cursor },
  );
  const records = page.map((r) => ({
    pagingToken: r.paging_token,
    type: r.type,
    transactionHash: r.transaction_hash,
    createdAt: r.created_at,
    successful: r.transaction_successful !== false,
    ...(r.type === 'create_account'
      ? { from: r.funder, to: r.account, amount: r.starting_balance, asset: 'native' as const }
      : {
          from: r.from,
          to: r.to,
          amount: r.amount,
          asset: fromHorizonAsset(r.asset_type, r.asset_code, r.asset_issuer),
        }),
  }));
  return { records, nextCursor: records.length === limit ? (records.at(-1)?.pagingToken ?? null) : null };
}

/** One balance movement of an account, from Horizon's effects: the ledger's own record of it. */
export interface LedgerMovement {
  /** Horizon's effect id (`<operation id>-<order>`, zero-padded): unique and stable for the movement. */
  effectId: string;
  operationId: string;
  direction: 'credit' | 'debit';
  asset: LedgerAssetRef;
  /** A 7-place decimal string. */
  amount: string;
  closedAt: string;
}

interface HorizonEffectRecord extends HorizonAsset {
  id: string;
  paging_token: string;
  type: string;
  created_at: string;
  amount?: string;
  starting_balance?: string;
  _links: { operation: { href: string } };
}

/**
 * The effects that move a balance: credits, debits, and an account's opening (its starting XLM). The
 * others (trustlines, signers, a pool's side of a trade) change no balance of the account.
 */
function movementOf(effect: HorizonEffectRecord): LedgerMovement | null {
  const operationId = effect.paging_token.split('-')[0] ?? '';
  const base = { effectId: effect.id, operationId, closedAt: effect.created_at };
  switch (effect.type) {
    case 'account_created':
      return { ...base, direction: 'credit', asset: 'native', amount: effect.starting_balance ?? '0' };
    case 'account_credited':
    case 'account_debited':
      return {
        ...base,
        direction: effect.type === 'account_credited' ? 'credit' : 'debit',
        asset: fromHorizonAsset(effect.asset_type, effect.asset_code, effect.asset_issuer),
        amount: effect.amount ?? '0',
      };
    default:
      return null;
  }
}

/** One page of an account's effects after `cursor`, oldest first: its movements and where it ends. */
export async function accountMovements(
  environment: Environment,
  publicKey: string,
  options: { cursor: string; limit: number },
): Promise<{ movements: LedgerMovement[]; lastCursor: string | null; full: boolean }> {
  const failure = 'The ledger could not be read (account effects)';
  const page = await horizonGet<HorizonPage<HorizonEffectRecord>>(
    environment,
    ['accounts', publicKey, 'effects'],
    { order: 'asc', limit: String(options.limit), cursor: options.cursor || undefined },
    failure,
  );
  // An account the ledger does not know (not opened yet) has no effects.
  const records = page?._embedded.records ?? [];
  return {
    movements: records.flatMap((r) => movementOf(r) ?? []),
    lastCursor: records.at(-1)?.paging_token ?? null,
    full: records.length === options.limit,
  };
}

/** What a statement line takes from the operation that made it and its transaction. */
export interface LedgerOperationFacts {
  operationId: string;
  transactionHash: string;
  type: string;
  /** Who paid (a payment's `from`, an account's funder) and who was paid. */
  from: string | null;
  to: string | null;
  /** The transaction's memo as Horizon gives it: `memo_type` and `memo` (hash memos base64). */
  memoType: string;
  memo: string | null;
}

interface HorizonOperationRecord {
  id: string;
  type: string;
  transaction_hash: string;
  from?: string;
  to?: string;
  funder?: string;
  account?: string;
  transaction?: { memo_type?: string; memo?: string };
}

/**
 * An account's operations with ids in [firstId, lastId], each with its transaction (`join=transactions`),
 * read page by page from just before `firstId`.
 */
export async function accountOperations(
  environment: Environment,
  publicKey: string,
  firstId: string,
  lastId: string,
): Promise<Map<string, LedgerOperationFacts>> {
  const found = new Map<string, LedgerOperationFacts>();
  const limit = 200;
  let cursor = (BigInt(firstId) - 1n).toString();
  for (;;) {
    const records = await readPage<HorizonOperationRecord>(
      environment,
      'account operations',
      ['accounts', publicKey, 'operations'],
      { order: 'asc', limit: String(limit), cursor, join: 'transactions' },
    );
    for (const r of records) {
      if (BigInt(r.id) > BigInt(lastId)) return found;
      found.set(r.id, {
        operationId: r.id,
        transactionHash: r.transaction_hash,
        type: r.type,
        from: r.from ?? r.funder ?? null,
        to: r.to ?? r.account ?? null,
        memoType: r.transaction?.memo_type ?? 'none',
        memo: r.transaction?.memo ?? null,
      });
    }
    const last = records.at(-1);
    if (records.length < limit || !last) return found;
    cursor = last.id;
  }
}
