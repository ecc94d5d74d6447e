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
