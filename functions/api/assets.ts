import * as z from 'zod';
import { assetCodeParam, listAssetsQuery } from '../../lib/assets/schema.ts';
import { getAsset, listAssets } from '../../lib/assets/service.ts';
import { apiFunction, ok, operation } from '../../lib/http/api-function.ts';

export const handler = apiFunction('assets', {
  listAssets: operation({
    query: listAssetsQuery,
    handle: async ({ tenant, query }) => ok(await listAssets(tenant, query)),
  }),
  getAsset: operation({
    params: z.object({ assetCode: assetCodeParam }),
    handle: async ({ tenant, params }) => ok(await getAsset(tenant, params.assetCode)),
  }),
});
