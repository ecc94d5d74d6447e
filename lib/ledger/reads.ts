// The ledger reads later features build on: strict-send path finding (swaps) and an account's
// payment history with Horizon's cursors (statements).
import { Asset } from '@stellar/stellar-sdk';
import type { Environment } from '../http/types.ts';
import { ledgerAmount } from './amounts.ts';
import { LedgerUnavailableError } from './errors.ts';
import { ledgerNetwork } from './network.ts';
import type { LedgerAssetRef as CreditAsset } from './operations.ts';

/** An asset on the ledger: the native one, or a credit asset by code and issuer. */
export type LedgerAssetRef = 'native' | CreditAsset;

const toSdkAsset = (asset: LedgerAssetRef): Asset =>
  asset === 'native' ? Asset.native() : new Asset(asset.code, asset.issuer);

const fromHorizonAsset = (type: string, code?: string, issuer?: string): LedgerAssetRef =>
  type === 'native' ? 'native' : { code: code ?? '', issuer: issuer ?? '' };

async function read<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new LedgerUnavailableError(`The ledger could not be read (${what}): ${(error as Error).message}`, {
      cause: error,
    });
  }
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
  const { server } = ledgerNetwork(environment);
  const page = await read('strict-send paths', () =>
    server.strictSendPaths(toSdkAsset(source), amount, destinations.map(toSdkAsset)).call(),
  );
  return page.records
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
  const { server } = ledgerNetwork(environment);
  let request = server
    .payments()
    .forAccount(publicKey)
    .order(options.order ?? 'asc')
    .limit(limit);
  if (options.cursor) request = request.cursor(options.cursor);
  const page = await read('account payments', () => request.call());
  // biome-ignore lint/suspicious/noExplicitAny: Horizon's payment records are a union of shapes; read the common fields.
  const records = page.records.map((r: any) => ({
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
