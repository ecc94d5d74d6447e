// Opening platform accounts (channel accounts, the sandbox issuers) from the funding account, as the ledger
// admin function does (and filling the sandbox pools, sandbox-liquidity.ts, settled the same way): one intent per set of accounts, so running the same request again resumes it (or
// answers its recorded outcome) rather than building anew; bounded in time, so the function answers
// inside its timeout even when the ledger is slow.
import { createHash } from 'node:crypto';
import { openPlatformAccounts } from '../ledger/operations.ts';
import type { SubmissionOutcome } from '../ledger/submit.ts';
import type { Environment } from '../tenant.ts';

/**
 * submitOnce starts no round after this: with the reads before it and one last ledger request
 * (LEDGER_TIMEOUT_MS) the ledger admin function answers inside its 60 s timeout (infra/stack.ts).
 */
export const OPENING_BUDGET_MS = 20_000;

/** The opening did not settle (the ledger is slow or refused it): the operator's next step, in its message. */
export class OpeningNotSettled extends Error {
  override name = 'OpeningNotSettled';
}

/** Opens those of `accounts` the ledger lacks, `startingBalance` XLM each; the transaction's hash (null: none). */
export async function openAccountsOnce(
  environment: Environment,
  what: 'channels' | 'sandbox-issuers',
  accounts: string[],
  startingBalance: string,
): Promise<string | null> {
  const digest = createHash('sha256').update(accounts.join(',')).digest('hex').slice(0, 32);
  const outcome = await openPlatformAccounts({
    environment,
    intentId: `${what}-open:${digest}`,
    accounts,
    startingBalance,
    budgetMs: OPENING_BUDGET_MS,
  });
  return settledHash(outcome, what);
}

/** The hash of a settled outcome (null: nothing was submitted), else the operator's next step, thrown. */
export function settledHash(
  outcome: SubmissionOutcome,
  what: string,
  verb: 'open' | 'fill' = 'open',
): string | null {
  const doing = verb === 'open' ? 'Opening' : 'Filling';
  if (outcome.status === 'pending') {
    throw new OpeningNotSettled(
      `${doing} the ${what} is not settled yet (${outcome.failureReason}): run the same command again to resume it.`,
    );
  }
  if (outcome.status === 'failed') {
    throw new OpeningNotSettled(
      `The ledger refused to ${verb} the ${what} (${outcome.errorCode}): ${outcome.failureReason}`,
    );
  }
  return outcome.hash;
}
