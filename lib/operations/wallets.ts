import { ok, operation } from '../http/api-function.ts';
import { createWalletBody, listWalletsQuery, walletIdParams } from '../wallets/schema.ts';
import { createWallet, getWallet, listWallets } from '../wallets/service.ts';

/** The operations of functions/api/wallets.ts, by the operation names of lib/routes.ts. */
export const walletsOperations = {
  listWallets: operation({
    query: listWalletsQuery,
    handle: async ({ tenant, query }) => ok(await listWallets(tenant, query)),
  }),
  createWallet: operation({
    body: createWalletBody,
    handle: async ({ tenant, body, now }) => ({ status: 201, body: await createWallet(tenant, body, now) }),
  }),
  getWallet: operation({
    params: walletIdParams,
    handle: async ({ tenant, params }) => ok(await getWallet(tenant, params.walletId)),
  }),
};
