// What the payments' builds learn of their wallets' accounts, kept for the execution environment: that an
// account is open, and the trustlines it holds. Neither is ever undone on a wallet's account: the platform
// holds its keys and never merges it nor removes a trustline (operations.ts only opens them), so what any
// read once showed, even one lagging behind the ledger, is still so, and a warm submitter paying between
// wallets it has seen reads none of their accounts. What no read has shown (an account not visible yet, a
// trustline lacking) is never kept: it is read at every build, so a wallet opened a moment ago is waited
// for, and a lacking trustline opened, as before. Kept by ledger (its Horizon and network), so a process
// that moves to another ledger (the tests) learns it afresh.
import type { Asset } from '@stellar/stellar-sdk';
import type { Environment } from '../tenant.ts';
import type { LedgerAccount } from './load-account.ts';
import { ledgerNetwork } from './network.ts';

/** Facts kept at most (an account, or one of its trustlines, each), the oldest dropped first. */
const MAX_KEPT = 50_000;
const kept = new Set<string>();

function accountKey(environment: Environment, accountId: string): string {
  const { horizonUrl, networkPassphrase } = ledgerNetwork(environment);
  return `${horizonUrl}|${networkPassphrase}|${accountId}`;
}

const lineKey = (environment: Environment, accountId: string, code: string, issuer: string) =>
  `${accountKey(environment, accountId)}|${code}:${issuer}`;

function keep(fact: string): void {
  if (kept.has(fact)) return;
  if (kept.size >= MAX_KEPT) kept.delete(kept.values().next().value as string);
  kept.add(fact);
}

/** Keeps what a read of a wallet's account showed: the account open, and each trustline it holds. */
export function noteSeen(environment: Environment, account: LedgerAccount): void {
  const accountId = account.accountId();
  keep(accountKey(environment, accountId));
  for (const line of account.balances) {
    if (line.asset_type === 'credit_alphanum4' || line.asset_type === 'credit_alphanum12')
      keep(lineKey(environment, accountId, line.asset_code, line.asset_issuer));
  }
}

/** A read showed the account open. */
export const seenOpen = (environment: Environment, accountId: string): boolean =>
  kept.has(accountKey(environment, accountId));

/** A read showed the account holding a trustline for `asset` (an issued asset). */
export const seenTrustline = (environment: Environment, accountId: string, asset: Asset): boolean =>
  kept.has(lineKey(environment, accountId, asset.getCode(), asset.getIssuer() as string));
