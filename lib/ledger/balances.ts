// Reading accounts from the ledger: whether an account exists, what it holds and what of that it can
// spend. Horizon's JSON through horizon-json.ts, so the functions that show balances carry no Stellar SDK.
import BigNumber from 'bignumber.js';
import type { Environment } from '../tenant.ts';
import { LEDGER_DECIMALS } from './amounts.ts';
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
  /**
   * What a payment can take of `balance` now (7 places, never negative): the balance less the selling
   * liabilities (open offers), and for XLM less the account's minimum balance as well (minimumBalance).
   */
  spendable: string;
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
  selling_liabilities?: string;
}

/** What of Horizon's account resource sets its reserve. */
export interface HorizonReserveCounts {
  subentry_count: number;
  num_sponsoring?: number;
  num_sponsored?: number;
}

/** Protocol base reserve: an account needs 2 of them, each subentry (a trustline, an offer) one more. */
export const BASE_RESERVE_XLM = '0.5';

/**
 * The XLM the ledger makes the account keep, with `extraSubentries` more: base reserve × (2 + subentries
 * + sponsoring − sponsored), the rule the ledger applies to every debit (local/ledger/state.ts
 * minBalance, which has no sponsorships).
 */
export function minimumBalance(account: HorizonReserveCounts, extraSubentries = 0): BigNumber {
  const entries =
    2 +
    account.subentry_count +
    extraSubentries +
    (account.num_sponsoring ?? 0) -
    (account.num_sponsored ?? 0);
  return new BigNumber(BASE_RESERVE_XLM).times(entries);
}

function spendableOf(line: HorizonBalanceLine, account: HorizonReserveCounts): string {
  const kept = new BigNumber(line.selling_liabilities ?? '0').plus(
    line.asset_type === 'native' ? minimumBalance(account) : 0,
  );
  return BigNumber.max(new BigNumber(line.balance).minus(kept), 0).toFixed(LEDGER_DECIMALS);
}

type HorizonAccount = HorizonReserveCounts & { balances: HorizonBalanceLine[] };

/** Liquidity-pool shares are not assets a wallet holds for the API, so they are left out. */
export function toLedgerBalances(account: HorizonAccount): LedgerBalance[] {
  const balances: LedgerBalance[] = [];
  for (const line of account.balances) {
    const spendable = spendableOf(line, account);
    if (line.asset_type === 'native') {
      balances.push({
        assetCode: 'XLM',
        balance: line.balance,
        assetIssuer: null,
        assetType: 'native',
        spendable,
      });
    } else if (line.asset_type === 'credit_alphanum4' || line.asset_type === 'credit_alphanum12') {
      balances.push({
        assetCode: line.asset_code ?? '',
        balance: line.balance,
        assetIssuer: line.asset_issuer ?? '',
        assetType: line.asset_type,
        spendable,
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
  const account = await horizonGet<HorizonAccount>(
    environment,
    ['accounts', publicKey],
    {},
    'The ledger could not be read',
  );
  return account ? { exists: true, balances: toLedgerBalances(account) } : { exists: false, balances: [] };
}
