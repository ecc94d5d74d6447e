// Loading an account for building transactions: the SDK's AccountResponse carries the sequence number
// TransactionBuilder increments. Horizon's JSON is read over node:http (horizon-json.ts) and handed to
// the SDK's AccountResponse as its own client would: the same object, without fetch and the client's
// link decoration. Reads that only show balances use balances.ts instead.
import { Horizon } from '@stellar/stellar-sdk';
import type { Environment } from '../tenant.ts';
import { LedgerUnavailableError } from './errors.ts';
import { horizonGet } from './horizon-json.ts';

/**
 * A platform account the builders rely on (funding, a channel). Missing from the ledger, it is a platform
 * misconfiguration, not the intent's fault: thrown (retried, then alarmed), never recorded as an outcome.
 */
export async function platformLedgerAccount(
  environment: Environment,
  publicKey: string,
  role: string,
): Promise<Horizon.AccountResponse> {
  const account = await findLedgerAccount(environment, publicKey);
  if (!account) throw new Error(`The ${environment} ${role} account ${publicKey} is not on the ledger`);
  return account;
}

/**
 * A wallet the gateway recorded as opened, as Horizon has it. Not found, the read lags behind the ledger
 * (a Horizon replica a few ledgers behind): thrown as unavailable, so the intent waits and retries, and
 * is never failed on one read (docs/decisions/ledger-outcomes.md).
 */
export async function openedAccount(
  environment: Environment,
  publicKey: string,
  role: string,
): Promise<Horizon.AccountResponse> {
  const account = await findLedgerAccount(environment, publicKey);
  if (!account) throw new LedgerUnavailableError(`The ${role} ${publicKey} is not visible on the ledger yet`);
  return account;
}

/** The account as Horizon has it, or null when the ledger holds no such account. */
export async function findLedgerAccount(
  environment: Environment,
  publicKey: string,
): Promise<Horizon.AccountResponse | null> {
  const account = await horizonGet<Horizon.ServerApi.AccountRecord>(
    environment,
    ['accounts', publicKey],
    {},
    'The ledger could not be read',
  );
  return account && new Horizon.AccountResponse(account);
}
