// What the asset routes answer. repo.ts builds each asset from exactly the registry entry's members,
// so the registry entry's schema is the resource's schema.

import { pageOf } from '../http/responses.ts';
import type * as z from '../zod.ts';
import { seedRegistries } from './registry-seed.ts';
import { assetRecord } from './schema.ts';

export const assetResource = assetRecord;
export const assetPage = pageOf(assetResource);

/** The example is the sandbox registry's USDC, as the local stack seeds it. */
export const assetExample: z.input<typeof assetResource> = seedRegistries.sandbox.find(
  (asset) => asset.assetCode === 'USDC',
) as z.input<typeof assetResource>;
