import { apiFunction, ok, operation } from '../../lib/api.ts';
import { createWalletBody, listWalletsQuery, walletIdParams } from '../../lib/wallets/schema.ts';
import { createWallet, getWallet, getWalletBalances, listWallets } from '../../lib/wallets/service.ts';

export const handler = apiFunction('wallets', {
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
});
