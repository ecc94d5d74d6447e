// Reading accounts from the ledger: whether an account exists, and what it holds.
import { type Horizon, NotFoundError } from '@stellar/stellar-sdk';
import type { Environment } from '../http/types.ts';
import { LedgerUnavailableError } from './errors.ts';
import { ledgerNetwork } from './network.ts';

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

/** The account as Horizon has it, or null when the ledger holds no such account. */
export async function findLedgerAccount(
  environment: Environment,
  publicKey: string,
): Promise<Horizon.AccountResponse | null> {
  try {
    return await ledgerNetwork(environment).server.loadAccount(publicKey);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw new LedgerUnavailableError(`The ledger could not be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Liquidity-pool shares are not assets a wallet holds for the API, so they are left out. */
export function toLedgerBalances(account: Pick<Horizon.AccountResponse, 'balances'>): LedgerBalance[] {
  const balances: LedgerBalance[] = [];
  for (const line of account.balances) {
    if (line.asset_type === 'native') {
      balances.push({ assetCode: 'XLM', balance: line.balance, assetIssuer: null, assetType: 'native' });
    } else if (line.asset_type === 'credit_alphanum4' || line.asset_type === 'credit_alphanum12') {
      balances.push({
        assetCode: line.asset_code,
        balance: line.balance,
        assetIssuer: line.asset_issuer,
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
  const account = await findLedgerAccount(environment, publicKey);
  return account ? { exists: true, balances: toLedgerBalances(account) } : { exists: false, balances: [] };
}
