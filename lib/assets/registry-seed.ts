// The asset registries the local stack seeds, per environment. Issuers are the public test-network
// (sandbox) and public-network (production) issuers of each stablecoin.
import type { Environment } from '../tenant.ts';
import type { Asset } from './schema.ts';

export const seedRegistries: Record<Environment, Asset[]> = {
  sandbox: [
    {
      assetCode: 'XLM',
      assetIssuer: null,
      assetType: 'native',
      name: 'Stellar Lumens',
      decimals: 7,
      networkName: 'stellar-testnet',
    },
    {
      assetCode: 'USDC',
      assetIssuer: 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5',
      assetType: 'credit_alphanum4',
      name: 'USD Coin',
      decimals: 2,
      networkName: 'stellar-testnet',
    },
    {
      assetCode: 'EURC',
      assetIssuer: 'GB3Q6QDZYTHWT7E5PVS3W7FUT5GVAFC5KSZFFLPU25GO7VTC3NM2ZTVO',
      assetType: 'credit_alphanum4',
      name: 'Euro Coin',
      decimals: 2,
      networkName: 'stellar-testnet',
    },
  ],
  production: [
    {
      assetCode: 'XLM',
      assetIssuer: null,
      assetType: 'native',
      name: 'Stellar Lumens',
      decimals: 7,
      networkName: 'stellar-pubnet',
    },
    {
      assetCode: 'USDC',
      assetIssuer: 'GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN',
      assetType: 'credit_alphanum4',
      name: 'USD Coin',
      decimals: 2,
      networkName: 'stellar-pubnet',
    },
    {
      assetCode: 'EURC',
      assetIssuer: 'GDHU6WRG4IEQXM5NZ4BMPKOXHW76MZM4Y2IEMFDVXBSDP6SJY4ITNPP2',
      assetType: 'credit_alphanum4',
      name: 'Euro Coin',
      decimals: 2,
      networkName: 'stellar-pubnet',
    },
  ],
};
