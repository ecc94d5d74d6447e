// Every key of the table is built here. Tenant-owned keys start with the tenant scope, so a read of
// another tenant's data cannot be written by accident.
import type { Environment, Tenant } from '../http/types.ts';

export interface ItemKey {
  pk: string;
  sk: string;
}

export const tenantScope = (tenant: Tenant): string => `T#${tenant.environment}#${tenant.associationId}`;

export const keys = {
  association: (tenant: Tenant): ItemKey => ({ pk: tenantScope(tenant), sk: 'ASSOCIATION' }),
  application: (applicationId: string): ItemKey => ({ pk: `APP#${applicationId}`, sk: 'APPLICATION' }),
  /** API keys are found by the hash of the key the caller presents. */
  apiKey: (keyHash: string): ItemKey => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  client: (clientId: string): ItemKey => ({ pk: `CLIENT#${clientId}`, sk: 'CLIENT' }),
  tokenRateWindow: (clientId: string, windowStart: number): ItemKey => ({
    pk: `RATE#token#${clientId}`,
    sk: `WINDOW#${windowStart}`,
  }),
  assetRegistry: (environment: Environment): string => `ASSETS#${environment}`,
  asset: (environment: Environment, assetCode: string): ItemKey => ({
    pk: `ASSETS#${environment}`,
    sk: `ASSET#${assetCode}`,
  }),
};

/** Secondary-index keys: applications list their API keys and clients (for revocation by the CLI). */
export const gsi1 = {
  byApplication: (applicationId: string, kind: 'APIKEY' | 'CLIENT', id: string) => ({
    gsi1pk: `APP#${applicationId}`,
    gsi1sk: `${kind}#${id}`,
  }),
};

export const walletKeys = {
  wallet: (tenant: Tenant, walletId: string): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `WALLET#${walletId}`,
  }),
  walletPrefix: 'WALLET#',
  /** Platform operations (KYC review) find a wallet by id alone; tenant reads never use this index. */
  byWalletId: (walletId: string) => ({ gsi1pk: `WALLET#${walletId}`, gsi1sk: 'WALLET' }),
};

/**
 * Ledger records (platform data, not tenant-owned: no API route reads them). Platform accounts are
 * found by environment and role; a submission by the caller's intent id, which must be unique in its
 * environment (callers prefix it with what it is for, e.g. `wallet-activation:<walletId>`).
 */
export const ledgerKeys = {
  platformAccount: (environment: Environment, role: string): ItemKey => ({
    pk: `PLATFORM#${environment}`,
    sk: `ACCOUNT#${role}`,
  }),
  submission: (environment: Environment, intentId: string): ItemKey => ({
    pk: `SUBMISSION#${environment}#${intentId}`,
    sk: 'SUBMISSION',
  }),
};

/**
 * Beneficiaries and their payment destinations (tenant-owned). Destinations sort under their
 * beneficiary with a prefix of their own, so a beneficiary list never reads destinations and a
 * destination is only ever found through the beneficiary it belongs to.
 */
export const beneficiaryKeys = {
  beneficiary: (tenant: Tenant, beneficiaryId: string): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `BENEFICIARY#${beneficiaryId}`,
  }),
  beneficiaryPrefix: 'BENEFICIARY#',
  destination: (tenant: Tenant, beneficiaryId: string, destinationId: string): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `PAYDEST#${beneficiaryId}#${destinationId}`,
  }),
  destinationPrefix: (beneficiaryId: string): string => `PAYDEST#${beneficiaryId}#`,
  /** Platform operations (destination review) find a destination by id alone; tenant reads never use this index. */
  byDestinationId: (destinationId: string) => ({ gsi1pk: `PAYDEST#${destinationId}`, gsi1sk: 'PAYDEST' }),
};

/**
 * The connector catalogue (platform data, one partition per environment, sorted by connector id),
 * and what is tenant-owned around it: quotes, and the business fee rows per connector and
 * transaction type that the platform team sets for an association.
 */
export const connectorKeys = {
  catalogue: (environment: Environment): string => `CONNECTORS#${environment}`,
  connector: (environment: Environment, connectorId: string): ItemKey => ({
    pk: `CONNECTORS#${environment}`,
    sk: `CONNECTOR#${connectorId}`,
  }),
};

export const quoteKeys = {
  quote: (tenant: Tenant, quoteId: string): ItemKey => ({ pk: tenantScope(tenant), sk: `QUOTE#${quoteId}` }),
  feeRow: (tenant: Tenant, connectorId: string, transactionType: string): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `FEE#${connectorId}#${transactionType}`,
  }),
  feeRowPrefix: 'FEE#',
};
