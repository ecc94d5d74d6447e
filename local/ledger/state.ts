// The ledger's entries in memory: accounts (with their trustlines) and liquidity pools, plus the chain of
// closed ledger headers. Mutations happen on a fork that is committed only when every operation succeeded,
// which is how a failed operation rolls back the whole transaction.
import { createHash } from 'node:crypto';
import { StrKey } from '@stellar/stellar-sdk';
import { toStroops } from './amounts.ts';
import { assetKey, checkAsset, comparePair, isNative } from './assets.ts';
import { poolIdOf, sqrtFloor } from './pools.ts';
import type { LedgerAsset, LedgerAssetSpec, LedgerGenesis } from './types.ts';

export interface Trustline {
  asset: LedgerAssetSpec;
  balance: bigint;
  limit: bigint;
  lastModifiedLedger: number;
}

export interface Signer {
  key: string;
  weight: number;
}

export interface Account {
  id: string;
  balance: bigint;
  seqNum: bigint;
  /** Ledger and close time (unix seconds) of the last sequence change, for minSeqAge/minSeqLedgerGap. */
  seqLedger: number;
  seqTime: number;
  subentries: number;
  masterWeight: number;
  thresholds: { low: number; med: number; high: number };
  /** Extra signers besides the master key (only genesis can set them: SetOptions is not supported). */
  signers: Signer[];
  trustlines: Map<string, Trustline>;
  /** Pool-share trustlines by pool id (each two subentries, as on the network). */
  poolShares: Map<string, PoolShareLine>;
  lastModifiedLedger: number;
  lastModifiedTime: number;
}

export interface PoolShareLine {
  balance: bigint;
  limit: bigint;
  lastModifiedLedger: number;
}

export interface Pool {
  /** Hex, as Horizon prints liquidity pool ids. */
  id: string;
  assetA: LedgerAsset;
  assetB: LedgerAsset;
  reserveA: bigint;
  reserveB: bigint;
  /** Shares issued to depositors (a genesis pool's are nobody's: sqrt(reserveA · reserveB)). */
  totalShares: bigint;
  /** Pool-share trustlines on it; the last one removed from an empty pool deletes it. */
  trustlines: number;
}

export interface LedgerHeader {
  sequence: number;
  hash: string;
  prevHash: string;
  /** Unix seconds. */
  closeTime: number;
  successfulTransactionCount: number;
  failedTransactionCount: number;
  operationCount: number;
  txSetOperationCount: number;
  feePool: bigint;
}

/** The entries a transaction may touch; cheap enough to copy whole for a local ledger. */
export interface Entries {
  accounts: Map<string, Account>;
  pools: Map<string, Pool>;
}

function cloneAccount(account: Account): Account {
  const trustlines = new Map<string, Trustline>();
  for (const [key, line] of account.trustlines) trustlines.set(key, { ...line });
  const poolShares = new Map<string, PoolShareLine>();
  for (const [id, line] of account.poolShares) poolShares.set(id, { ...line });
  return {
    ...account,
    thresholds: { ...account.thresholds },
    signers: [...account.signers],
    trustlines,
    poolShares,
  };
}

export function forkEntries(entries: Entries): Entries {
  const accounts = new Map<string, Account>();
  for (const [id, account] of entries.accounts) accounts.set(id, cloneAccount(account));
  const pools = new Map<string, Pool>();
  for (const [id, pool] of entries.pools) pools.set(id, { ...pool });
  return { accounts, pools };
}

export class LedgerState {
  entries: Entries;
  readonly baseFee: bigint;
  readonly baseReserve: bigint;
  readonly headers: LedgerHeader[] = [];
  readonly totalCoins: bigint;

  constructor(genesis: LedgerGenesis, baseFee: bigint, baseReserve: bigint, now: number) {
    this.baseFee = baseFee;
    this.baseReserve = baseReserve;
    this.entries = genesisEntries(genesis, now);
    let coins = 0n;
    for (const account of this.entries.accounts.values()) coins += account.balance;
    for (const pool of this.entries.pools.values()) {
      if (isNative(pool.assetA)) coins += pool.reserveA;
    }
    this.totalCoins = coins;
    this.headers.push(closeHeader(undefined, 1, now, { success: 0, failed: 0, ops: 0, fees: 0n }));
  }

  get latest(): LedgerHeader {
    const header = this.headers.at(-1);
    if (!header) throw new Error('ledger has no genesis header');
    return header;
  }

  account(id: string): Account | undefined {
    return this.entries.accounts.get(id);
  }

  /** Appends the next ledger, closed at `closeTime` with the transactions `summary` counts. */
  close(closeTime: number, summary: LedgerSummary): LedgerHeader {
    const previous = this.latest;
    const header = closeHeader(previous, previous.sequence + 1, closeTime, {
      ...summary,
      fees: previous.feePool + summary.fees,
    });
    this.headers.push(header);
    return header;
  }
}

export interface LedgerSummary {
  success: number;
  failed: number;
  ops: number;
  fees: bigint;
}

function closeHeader(
  previous: LedgerHeader | undefined,
  sequence: number,
  closeTime: number,
  summary: LedgerSummary,
): LedgerHeader {
  const prevHash = previous?.hash ?? '0'.repeat(64);
  // Not a real LedgerHeader hash, only unique and stable, which is all Horizon clients rely on.
  const hash = createHash('sha256').update(`${prevHash}:${sequence}:${closeTime}`).digest('hex');
  return {
    sequence,
    hash,
    prevHash,
    closeTime,
    successfulTransactionCount: summary.success,
    failedTransactionCount: summary.failed,
    operationCount: summary.ops,
    txSetOperationCount: summary.ops,
    feePool: summary.fees,
  };
}

/** (2 + subentries) × base reserve: the native balance an account must keep. */
export function minBalance(account: Account, baseReserve: bigint, extraSubentries = 0): bigint {
  return BigInt(2 + account.subentries + extraSubentries) * baseReserve;
}

/** What the account can spend in XLM without going under its reserve (no offers, so no liabilities). */
export function availableNative(account: Account, baseReserve: bigint): bigint {
  return account.balance - minBalance(account, baseReserve);
}

/** A new account as CreateAccount (and genesis) makes it: master key weight 1, thresholds 0, seq = ledger << 32. */
export function newAccount(id: string, balance: bigint, ledger: number, closeTime: number): Account {
  return {
    id,
    balance,
    seqNum: BigInt(ledger) << 32n,
    seqLedger: ledger,
    seqTime: closeTime,
    subentries: 0,
    masterWeight: 1,
    thresholds: { low: 0, med: 0, high: 0 },
    signers: [],
    trustlines: new Map(),
    poolShares: new Map(),
    lastModifiedLedger: ledger,
    lastModifiedTime: closeTime,
  };
}

const weight = (value: number, what: string) => {
  if (!Number.isInteger(value) || value < 0 || value > 255)
    throw new RangeError(`genesis: ${what} must be 0–255`);
  return value;
};

/** A genesis account's signing set-up: master weight, thresholds and extra ed25519 signers. */
function setSigners(account: Account, spec: LedgerGenesis['accounts'][number]): void {
  if (spec.masterWeight !== undefined) account.masterWeight = weight(spec.masterWeight, 'masterWeight');
  if (spec.thresholds) {
    const { low, med, high } = spec.thresholds;
    account.thresholds = { low: weight(low, 'low'), med: weight(med, 'med'), high: weight(high, 'high') };
  }
  for (const signer of spec.signers ?? []) {
    if (!StrKey.isValidEd25519PublicKey(signer.key) || signer.key === account.id)
      throw new RangeError(`genesis: bad signer ${signer.key} on ${account.id}`);
    if (account.signers.some((s) => s.key === signer.key))
      throw new RangeError(`genesis: duplicate signer ${signer.key} on ${account.id}`);
    account.signers.push({ key: signer.key, weight: weight(signer.weight, 'signer weight') });
    // Each signer is a subentry (it raises the reserve), as on the network.
    account.subentries += 1;
  }
}

function genesisEntries(genesis: LedgerGenesis, now: number): Entries {
  const accounts = new Map<string, Account>();
  for (const spec of genesis.accounts) {
    if (!StrKey.isValidEd25519PublicKey(spec.publicKey))
      throw new RangeError(`genesis: bad key ${spec.publicKey}`);
    if (accounts.has(spec.publicKey)) throw new RangeError(`genesis: duplicate account ${spec.publicKey}`);
    const account = newAccount(spec.publicKey, toStroops(spec.nativeBalance), 1, now);
    setSigners(account, spec);
    accounts.set(spec.publicKey, account);
  }
  for (const spec of genesis.accounts) {
    const account = accounts.get(spec.publicKey);
    if (!account) continue;
    for (const line of spec.trustlines ?? []) {
      const asset = checkAsset(line.asset) as LedgerAssetSpec;
      if (asset.issuer === account.id) throw new RangeError('genesis: an issuer cannot trust its own asset');
      const balance = toStroops(line.balance);
      const limit = line.limit === undefined ? 2n ** 63n - 1n : toStroops(line.limit);
      if (balance > limit) throw new RangeError(`genesis: ${assetKey(asset)} balance above its limit`);
      account.trustlines.set(assetKey(asset), { asset, balance, limit, lastModifiedLedger: 1 });
      account.subentries += 1;
    }
  }
  const pools = new Map<string, Pool>();
  for (const spec of genesis.pools ?? []) {
    let assetA = checkAsset(spec.assetA);
    let assetB = checkAsset(spec.assetB);
    let reserveA = toStroops(spec.reserveA);
    let reserveB = toStroops(spec.reserveB);
    const order = comparePair(assetA, assetB);
    if (order === 0) throw new RangeError('genesis: a pool needs two different assets');
    if (order > 0) [assetA, assetB, reserveA, reserveB] = [assetB, assetA, reserveB, reserveA];
    if (reserveA <= 0n || reserveB <= 0n) throw new RangeError('genesis: pool reserves must be positive');
    const id = poolIdOf(assetA, assetB);
    if (pools.has(id))
      throw new RangeError(`genesis: duplicate pool ${assetKey(assetA)}/${assetKey(assetB)}`);
    pools.set(id, {
      id,
      assetA,
      assetB,
      reserveA,
      reserveB,
      totalShares: sqrtFloor(reserveA * reserveB),
      trustlines: 0,
    });
  }
  return { accounts, pools };
}
