// Loading an account for building transactions: Horizon's JSON, read over node:http (horizon-json.ts), with
// the sequence number TransactionBuilder increments, as the SDK's Horizon.AccountResponse holds them. Made
// here rather than with that class: a value import of the SDK's `Horizon` namespace keeps all of it in a
// bundle (its Server, HTTP client and event streams, ~50 KiB every function building transactions parsed
// at each cold start and never ran). Reads that only show balances use balances.ts instead.
import { Account, type Horizon } from '@stellar/stellar-sdk';
import type { Environment } from '../tenant.ts';
import { LedgerUnavailableError } from './errors.ts';
import { horizonGet } from './horizon-json.ts';

/** An account as Horizon has it, able to source a transaction (TransactionBuilder increments its sequence). */
export type LedgerAccount = Horizon.HorizonApi.AccountResponse & {
  accountId(): string;
  sequenceNumber(): string;
  incrementSequenceNumber(): void;
};

/** Horizon's account resource as a transaction source: what the SDK's AccountResponse makes of it. */
export function ledgerAccountOf(resource: Horizon.HorizonApi.AccountResponse): LedgerAccount {
  const base = new Account(resource.account_id, resource.sequence);
  return {
    ...resource,
    accountId: () => base.accountId(),
    sequenceNumber: () => base.sequenceNumber(),
    incrementSequenceNumber() {
      base.incrementSequenceNumber();
      this.sequence = base.sequenceNumber();
    },
  };
}

/**
 * A platform account the builders rely on (funding, a channel). Missing from the ledger, it is a platform
 * misconfiguration, not the intent's fault: thrown (retried, then alarmed), never recorded as an outcome.
 */
export async function platformLedgerAccount(
  environment: Environment,
  publicKey: string,
  role: string,
): Promise<LedgerAccount> {
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
): Promise<LedgerAccount> {
  const account = await findLedgerAccount(environment, publicKey);
  if (!account) throw new LedgerUnavailableError(`The ${role} ${publicKey} is not visible on the ledger yet`);
  return account;
}

/** The account as Horizon has it, or null when the ledger holds no such account. */
export async function findLedgerAccount(
  environment: Environment,
  publicKey: string,
): Promise<LedgerAccount | null> {
  const account = await horizonGet<Horizon.HorizonApi.AccountResponse>(
    environment,
    ['accounts', publicKey],
    {},
    'The ledger could not be read',
  );
  return account && ledgerAccountOf(account);
}
