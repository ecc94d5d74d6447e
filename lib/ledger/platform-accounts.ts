// The platform's own ledger accounts, per environment and role: `funding` pays every fee and opens
// wallet accounts; `issuer:<CODE>` and `distributor:<CODE>` issue and hold sandbox assets; `liquidity`
// holds the shares of the sandbox's pools on a deployed stage (lib/admin/sandbox-liquidity.ts);
// `settlement:<connectorId>` is where a connector's off-ramps are paid and its on-ramps paid from. Each is kept
// in the table as { role, publicKey, sealedSecret }; putting its XLM on the ledger is an operator's job
// (friendbot on testnet, the genesis of the local ledger, a treasury transfer in production).
import { entity } from '../db/entity.ts';
import { heldReads } from '../db/held-reads.ts';
import { createIfAbsent, getRecord } from '../db/items.ts';
import { ledgerKeys } from '../db/keys.ts';
import type { Environment } from '../tenant.ts';
import { type AccountKeys, newAccountKeys, type SealedSecret } from './custody.ts';

export type PlatformRole =
  | 'funding'
  | 'liquidity'
  | `issuer:${string}`
  | `distributor:${string}`
  | `settlement:${string}`;

export interface PlatformAccount {
  role: PlatformRole;
  environment: Environment;
  publicKey: string;
  sealedSecret: SealedSecret;
  createdAt: string;
}

export class PlatformAccountMissingError extends Error {
  override name = 'PlatformAccountMissingError';
}

const ROLE = /^(funding|liquidity|(issuer|distributor):[A-Za-z0-9]{1,12}|settlement:[a-z0-9-]{1,64})$/;

function assertRole(role: string): asserts role is PlatformRole {
  if (!ROLE.test(role)) throw new TypeError(`Unknown platform account role ${JSON.stringify(role)}`);
}

/** A platform account: platform data, one per environment and role. */
const platformAccountEntity = entity<PlatformAccount>({
  type: 'platformAccount',
  keyOf: (account) => ledgerKeys.platformAccount(account.environment, account.role),
});

const toAccount = ({
  role,
  environment,
  publicKey,
  sealedSecret,
  createdAt,
}: PlatformAccount): PlatformAccount => ({
  role,
  environment,
  publicKey,
  sealedSecret,
  createdAt,
});

export async function findPlatformAccount(
  environment: Environment,
  role: PlatformRole,
): Promise<PlatformAccount | undefined> {
  const record = await getRecord<PlatformAccount>(ledgerKeys.platformAccount(environment, role), {
    consistent: true,
  });
  return record && toAccount(record);
}

/**
 * Kept per execution environment within REFERENCE_MAX_AGE_SECONDS (lib/db/held-reads.ts): a platform
 * account is written once (ensurePlatformAccount's conditional put) and never changed, so every payment
 * the submitter builds need not read the funding account again.
 */
const heldAccount = heldReads((key: `${Environment}/${PlatformRole}`) => {
  const [environment, role] = key.split(/\/(.*)/s) as [Environment, PlatformRole];
  return findPlatformAccount(environment, role);
});

/** The account for a role; throws PlatformAccountMissingError if it has not been set up. */
export async function platformAccount(
  environment: Environment,
  role: PlatformRole,
): Promise<PlatformAccount> {
  assertRole(role);
  const account = await heldAccount(`${environment}/${role}`);
  if (!account) {
    throw new PlatformAccountMissingError(
      `No ${role} platform account for ${environment}: create it with ensurePlatformAccount and fund it on the ledger.`,
    );
  }
  return account;
}

/**
 * The account for a role, creating its keys if there are none yet (or adopting `keys`, sealed by
 * `newAccountKeys`/`sealSecret`, for an account that already exists on the ledger). Concurrent callers
 * agree: the put is conditional on absence, and the loser returns the winner's account.
 */
export async function ensurePlatformAccount(
  environment: Environment,
  role: PlatformRole,
  options: { now?: Date; keys?: AccountKeys } = {},
): Promise<PlatformAccount> {
  assertRole(role);
  const existing = await findPlatformAccount(environment, role);
  if (existing) return existing;
  const { publicKey, sealedSecret } = options.keys ?? (await newAccountKeys(environment));
  const createdAt = (options.now ?? new Date()).toISOString();
  const account: PlatformAccount = { role, environment, publicKey, sealedSecret, createdAt };
  const created = await createIfAbsent(platformAccountEntity, account);
  // Another caller created it first: theirs is the account.
  return created.outcome === 'conditionFailed' ? toAccount(created.current) : account;
}
