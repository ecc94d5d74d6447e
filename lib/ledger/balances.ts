// Reading accounts from the ledger: whether an account exists, and what it holds. Horizon's JSON through
// horizon-json.ts, so the functions that show balances carry no Stellar SDK.
import type { Environment } from '../http/types.ts';
import { horizonGet } from './horizon-json.ts';

export interface LedgerBalance {
  /** `XLM` for the native asset. */
  assetCode: string;
  /** A decimal string, exactly as Horizon gives it (7 places). */
  balance: string;
  /** null for the native asset. */
  assetIssuer: string | null;
  /** Horizon's asset type: `native`, `credit_alphanum4`, `credit_alphanum12`. */
  assetType: string;
}

export interface AccountBalances {
  exists: boolean;
  balances: LedgerBalance[];
}

/** A line of `balances` in Horizon's account resource (pool shares have a pool id instead of a code). */
interface HorizonBalanceLine {
  asset_type: string;
  balance: string;
  asset_code?: string;
  asset_issuer?: string;
}

/** Liquidity-pool shares are not assets a wallet holds for the API, so they are left out. */
export function toLedgerBalances(account: { balances: HorizonBalanceLine[] }): LedgerBalance[] {
  const balances: LedgerBalance[] = [];
  for (const line of account.balances) {
    if (line.asset_type === 'native') {
      balances.push({ assetCode: 'XLM', balance: line.balance, assetIssuer: null, assetType: 'native' });
    } else if (line.asset_type === 'credit_alphanum4' || line.asset_type === 'credit_alphanum12') {
      balances.push({
        assetCode: line.asset_code ?? '',
        balance: line.balance,
        assetIssuer: line.asset_issuer ?? '',
        assetType: line.asset_type,
      });
    }
  }
  return balances;
}

/**
 * What an account holds. An account the ledger does not know is `{ exists: false, balances: [] }`; an
 * unreachable or slow ledger throws LedgerUnavailableError (callers show `balances: null`).
 */
export async function accountBalances(environment: Environment, publicKey: string): Promise<AccountBalances> {
  const account = await horizonGet<{ balances: HorizonBalanceLine[] }>(
    environment,
    ['accounts', publicKey],
    {},
    'The ledger could not be read',
  );
  return account ? { exists: true, balances: toLedgerBalances(account) } : { exists: false, balances: [] };
}
