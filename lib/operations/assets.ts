import { assetCodeParam, listAssetsQuery } from '../assets/schema.ts';
import { getAsset, listAssets } from '../assets/service.ts';
import { ok, operation } from '../http/api-function.ts';
import * as z from '../zod.ts';
import { listOperation } from './tenant-shapes.ts';

/** The operations of functions/api/assets.ts, by the operation names of lib/routes.ts. */
export const assetsOperations = {
  listAssets: listOperation(listAssetsQuery, listAssets),
  getAsset: operation({
    params: z.object({ assetCode: assetCodeParam }),
    handle: async ({ tenant, params }) => ok(await getAsset(tenant, params.assetCode)),
  }),
};
