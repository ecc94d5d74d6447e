// Wallets: a ledger account per wallet, its key sealed at rest, KYC status, balances read from the ledger.
import { randomUUID } from 'node:crypto';
import { findRegistryAsset } from '../assets/service.ts';
import { config } from '../config.ts';
import { type FieldError, notFound, Problem, tooManyRequests, unprocessable } from '../http/problem.ts';
import { accountBalances, type LedgerBalance } from '../ledger/balances.ts';
import { newAccountKeys } from '../ledger/custody.ts';
import { logger } from '../log.ts';
import { alpha3Of } from '../reference/countries.ts';
import type { Tenant } from '../tenant.ts';
import {
  countWalletCreation,
  findWallet,
  listWalletPage,
  putWallet,
  transitionStatus,
  type WalletRecord,
  type WalletStatus,
} from './repo.ts';
import { toWalletResource } from './responses.ts';
import type { CreateWallet, WalletMetadata } from './schema.ts';

/** Countries arrive as alpha-2 or alpha-3 in any case and are kept as alpha-3; unknown ones are 422s. */
function normaliseMetadata(metadata: WalletMetadata): { metadata: WalletMetadata; errors: FieldError[] } {
  const field = metadata.entityType === 'Person' ? 'nationality' : 'registrationCountry';
  const given = metadata.entityType === 'Person' ? metadata.nationality : metadata.registrationCountry;
  const alpha3 = alpha3Of(given);
  if (!alpha3)
    return {
      metadata,
      errors: [{ field: `metadata.${field}`, message: `${given} is not an ISO 3166-1 country` }],
    };
  return { metadata: { ...metadata, [field]: alpha3 } as WalletMetadata, errors: [] };
}

/** Balances of an active wallet; [] while its account is being opened; null when the ledger cannot be read. */
async function balancesOf(record: WalletRecord): Promise<LedgerBalance[] | null> {
  if (record.activationStatus !== 'active') return [];
  try {
    return (await accountBalances(record.environment, record.publicKey)).balances;
  } catch (error) {
    logger.warn('Balance lookup failed', { walletId: record.walletId, error: (error as Error).message });
    return null;
  }
}

export async function createWallet(tenant: Tenant, input: CreateWallet, now: Date) {
  const asset = await findRegistryAsset(tenant.environment, input.assetCode);
  const normalised = input.metadata ? normaliseMetadata(input.metadata) : { metadata: null, errors: [] };
  const errors: FieldError[] = [
    ...(asset ? [] : [{ field: 'assetCode', message: `${input.assetCode} is not in the asset registry` }]),
    ...normalised.errors,
  ];
  if (!asset || errors.length) throw unprocessable('The wallet cannot be created as requested.', errors);
  const { WALLET_CREATE_LIMIT: limit, WALLET_CREATE_WINDOW_SECONDS: window } = config();
  const retryAfter = await countWalletCreation(tenant, limit, window, now);
  if (retryAfter !== null)
    throw tooManyRequests(
      retryAfter,
      `This association created ${limit} wallets in the last ${window} seconds, the most it may; retry after ${retryAfter} seconds.`,
    );

  const walletId = randomUUID();
  const keys = await newAccountKeys(tenant.environment);
  const record: WalletRecord = {
    walletId,
    environment: tenant.environment,
    associationId: tenant.associationId,
    walletName: input.walletName,
    assetCode: asset.assetCode,
    assetIssuer: asset.assetIssuer,
    ownAccount: input.ownAccount,
    status: input.ownAccount ? 'Verified' : 'Pending',
    networkName: asset.networkName,
    publicKey: keys.publicKey,
    sealedSecret: keys.sealedSecret,
    metadata: normalised.metadata,
    activationStatus: 'pending',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  // The record is the outbox: its insert, 'pending', is what asks for the ledger account (lib/outbox.ts
  // routes it from the table's stream to the activation queue). One write, so no crash can leave a
  // record without its activation, or an activation without its record.
  await putWallet(record);
  return toWalletResource(record, []);
}

async function walletOrNotFound(tenant: Tenant, walletId: string): Promise<WalletRecord> {
  const record = await findWallet(tenant, walletId);
  if (!record) throw notFound(`No wallet ${walletId}.`);
  return record;
}

export async function getWallet(tenant: Tenant, walletId: string) {
  const record = await walletOrNotFound(tenant, walletId);
  return toWalletResource(record, await balancesOf(record));
}

export async function listWallets(
  tenant: Tenant,
  query: {
    limit: number;
    cursor?: string | undefined;
    assetCode?: string | undefined;
    networkName?: string | undefined;
  },
) {
  const page = await listWalletPage(
    tenant,
    { assetCode: query.assetCode, networkName: query.networkName },
    { limit: query.limit, cursor: query.cursor },
  );
  const data = await Promise.all(
    page.data.map(async (record) => toWalletResource(record, await balancesOf(record))),
  );
  return { data, pagination: page.pagination };
}

/** The end of a KYC review: Pending → Verified or Rejected, once. */
export async function decideKyc(
  tenant: Tenant,
  walletId: string,
  decision: Exclude<WalletStatus, 'Pending'>,
  now: Date,
) {
  const moved = await transitionStatus(tenant, walletId, 'Pending', decision, now);
  if (moved.outcome === 'missing') throw notFound(`No wallet ${walletId}.`);
  if (moved.outcome === 'conditionFailed')
    throw new Problem(409, `The wallet's KYC review has already ended: it is ${moved.current.status}.`);
  return toWalletResource(moved.record, await balancesOf(moved.record));
}
