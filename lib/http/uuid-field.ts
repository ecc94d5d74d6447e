// The one schema of an id a caller sends (a path parameter, a query or body member): a UUID in either
// case, read in lower case. UUIDs are case-insensitive (RFC 9562 §4) and every id is stored as this
// service wrote it, in lower case, so `3C9D…` finds the wallet `3c9d…` and a replay that spells an id
// in upper case is the same request (lib/payments/service.ts fingerprints what this produces).
import * as z from '../zod.ts';

export const uuidField = z.uuid('must be a UUID').check(z.toLowerCase());

/** Path parameters that are all ids: `{beneficiaryId}/…/{destinationId}` is `uuidParams('beneficiaryId', 'destinationId')`. */
export const uuidParams = <K extends string>(...names: K[]) =>
  z.strictObject(Object.fromEntries(names.map((name) => [name, uuidField])) as Record<K, typeof uuidField>);
