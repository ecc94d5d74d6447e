import { ok, operation } from '../http/api-function.ts';
import { createWalletBody, listWalletsQuery, walletIdParams } from '../wallets/schema.ts';
import { createWallet, getWallet, getWalletBalances, listWallets } from '../wallets/service.ts';

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
  getWalletBalances: operation({
    params: walletIdParams,
    // A change entry of the spec records this route's removal: say so on every answer (RFC 9745).
    handle: async ({ tenant, params }) => ({
      ...ok(await getWalletBalances(tenant, params.walletId)),
      headers: { Deprecation: 'true', Link: `</v1/wallets/${params.walletId}>; rel="successor-version"` },
    }),
  }),
};
