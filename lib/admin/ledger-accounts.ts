// The platform's ledger accounts of one environment, for the platform team: the funding account (its
// keys made on first use; putting XLM on it is the team's job), the channel account pool, the
// sandbox assets' issuers and the sandbox's liquidity pools. It runs
// inside the stage, in functions/admin/ledger-accounts.ts, because only a stage's functions may decrypt
// its key-encryption keys; the admin CLI invokes it (lib/admin/ledger-admin.ts), locally and deployed.
import BigNumber from 'bignumber.js';
import { config, MAX_LEDGER_CHANNELS } from '../config.ts';
import { accountBalances } from '../ledger/balances.ts';
import { channelPool } from '../ledger/channels.ts';
import { LedgerUnavailableError } from '../ledger/errors.ts';
import { ledgerNetwork } from '../ledger/network.ts';
import { ensurePlatformAccount } from '../ledger/platform-accounts.ts';
import type { Environment } from '../tenant.ts';
import * as z from '../zod.ts';
import { CHANNEL_STARTING_XLM, type ChannelPoolReport, openChannelPool } from './channels.ts';
import { OpeningNotSettled } from './platform-openings.ts';
import { ISSUER_STARTING_XLM, openSandboxAssets, sandboxRegistry } from './sandbox-assets.ts';
import {
  emptySandboxPools,
  liquidityLumens,
  openSandboxLiquidity,
  type SandboxPoolStatus,
  sandboxPoolsStatus,
} from './sandbox-liquidity.ts';

export const ledgerAdminRequest = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('status'), environment: z.enum(['sandbox', 'production']) }),
  z.strictObject({
    action: z.literal('open-channels'),
    environment: z.enum(['sandbox', 'production']),
    count: z.number().check(z.int(), z.gte(1), z.lte(MAX_LEDGER_CHANNELS)),
  }),
  // Sandbox only: production's registry names the stablecoins' real issuers (`admin assets load`).
  z.strictObject({ action: z.literal('open-sandbox-assets') }),
  // Sandbox only: swaps between the sandbox's own assets need pools (sandbox-liquidity.ts).
  z.strictObject({ action: z.literal('open-sandbox-liquidity') }),
]);
export type LedgerAdminRequest = z.infer<typeof ledgerAdminRequest>;

/** What the function answers: the report, or why it did nothing (an operator's next step). */
export type LedgerAdminResult = { ok: true; report: unknown } | { ok: false; error: string };

interface LedgerAccount {
  publicKey: string;
  open: boolean;
  /** Its XLM, a decimal string; null while it is not open. */
  xlm: string | null;
}

export interface LedgerAccountsStatus {
  environment: Environment;
  network: { horizonUrl: string; networkPassphrase: string };
  funding: LedgerAccount;
  /** LEDGER_CHANNELS: the pool the functions lease from. */
  channelsConfigured: number;
  channels: (LedgerAccount & { index: number; leasedBy: string | null })[];
  /** Sandbox: the reference pools between its assets and their reserves (null: no such pool). */
  pools?: SandboxPoolStatus[];
}

/**
 * Left on the funding account beyond what it gives: its own reserve (1 XLM) and a margin for the fees
 * it pays for every transaction the gateway submits until it is topped up.
 */
const FUNDING_FLOOR_XLM = '5';

async function ledgerAccount(environment: Environment, publicKey: string): Promise<LedgerAccount> {
  const { exists, balances } = await accountBalances(environment, publicKey);
  const xlm = balances.find((balance) => balance.assetType === 'native')?.balance ?? null;
  return { publicKey, open: exists, xlm: exists ? xlm : null };
}

export async function ledgerAccountsStatus(environment: Environment): Promise<LedgerAccountsStatus> {
  const funding = await ensurePlatformAccount(environment, 'funding');
  const { horizonUrl, networkPassphrase } = ledgerNetwork(environment);
  const pool = await channelPool(environment);
  return {
    environment,
    network: { horizonUrl, networkPassphrase },
    funding: await ledgerAccount(environment, funding.publicKey),
    channelsConfigured: config().LEDGER_CHANNELS,
    channels: await Promise.all(
      pool.map(async (channel) => ({
        index: channel.index,
        ...(await ledgerAccount(environment, channel.publicKey)),
        leasedBy: channel.holder ?? null,
      })),
    ),
    ...(environment === 'sandbox' ? { pools: await sandboxPoolsStatus(await sandboxRegistry()) } : {}),
  };
}

/**
 * Why the funding account cannot spend `spending` XLM on `what`, or null when it can: not on the ledger
 * yet, or holding too little (the operator's next step, in one line).
 */
function fundingShortfall(status: LedgerAccountsStatus, spending: BigNumber, what: string): string | null {
  const { environment, funding, network } = status;
  if (!funding.open) {
    return (
      `The ${environment} funding account ${funding.publicKey} is not open on ${network.horizonUrl}: ` +
      'send it XLM first (on the test network: https://friendbot.stellar.org?addr=<it>).'
    );
  }
  const needed = spending.plus(FUNDING_FLOOR_XLM);
  if (spending.isZero() || new BigNumber(funding.xlm ?? '0').gte(needed)) return null;
  return (
    `The ${environment} funding account ${funding.publicKey} holds ${funding.xlm} XLM; ${what} ` +
    `needs at least ${needed.toFixed()} XLM: send it more first.`
  );
}

/** Opens the pool's first `count` channel accounts, or says what the funding account lacks first. */
export async function openChannels(environment: Environment, count: number): Promise<LedgerAdminResult> {
  const status = await ledgerAccountsStatus(environment);
  const missing = Math.max(0, count - status.channels.filter((channel) => channel.open).length);
  const shortfall = fundingShortfall(
    status,
    new BigNumber(CHANNEL_STARTING_XLM).times(missing),
    `opening ${missing} channel account(s)`,
  );
  if (shortfall) return { ok: false, error: shortfall };
  const report: ChannelPoolReport = await openChannelPool(environment, count);
  return { ok: true, report };
}

/** Opens the sandbox assets' issuers and registers the assets with them (lib/admin/sandbox-assets.ts). */
export async function openSandboxIssuers(): Promise<LedgerAdminResult> {
  const status = await ledgerAccountsStatus('sandbox');
  const assets = await sandboxRegistry();
  const issuers = assets.flatMap((asset) => (asset.assetIssuer ? [asset.assetIssuer] : []));
  const open = await Promise.all(
    issuers.map(async (issuer) => (await ledgerAccount('sandbox', issuer)).open),
  );
  const missing = open.filter((isOpen) => !isOpen).length;
  const shortfall = fundingShortfall(
    status,
    new BigNumber(ISSUER_STARTING_XLM).times(missing),
    `opening ${missing} issuer account(s)`,
  );
  if (shortfall) return { ok: false, error: shortfall };
  return { ok: true, report: await openSandboxAssets(assets) };
}

/** Fills the sandbox's empty reference pools (lib/admin/sandbox-liquidity.ts), or says what funding lacks first. */
export async function openSandboxPools(): Promise<LedgerAdminResult> {
  const status = await ledgerAccountsStatus('sandbox');
  const registry = await sandboxRegistry();
  const empty = await emptySandboxPools(registry);
  const shortfall = fundingShortfall(
    status,
    liquidityLumens(empty),
    `filling ${empty.length} sandbox pool(s)`,
  );
  if (shortfall) return { ok: false, error: shortfall };
  return { ok: true, report: await openSandboxLiquidity(registry, empty) };
}

export async function runLedgerAdmin(request: LedgerAdminRequest): Promise<LedgerAdminResult> {
  try {
    if (request.action === 'status')
      return { ok: true, report: await ledgerAccountsStatus(request.environment) };
    if (request.action === 'open-sandbox-assets') return await openSandboxIssuers();
    if (request.action === 'open-sandbox-liquidity') return await openSandboxPools();
    return await openChannels(request.environment, request.count);
  } catch (error) {
    // Not a fault of the function: the ledger is unreachable, or has not settled the opening yet, or
    // refused it. The operator runs the same command again.
    if (error instanceof OpeningNotSettled) return { ok: false, error: error.message };
    if (error instanceof LedgerUnavailableError)
      return { ok: false, error: `${error.message}: nothing was opened; run the same command again.` };
    throw error;
  }
}
