// The query and path schemas of the connector routes. The catalogue file the admin CLI loads has its
// own module (catalogue-schema.ts), so the API function does not bundle its currency and country tables.
import { pageQueryShape } from '../http/pagination.ts';
import * as z from '../zod.ts';
import { transactionTypeParam } from './transaction-types.ts';

/** Connector ids are lower-case slugs (`ke-momo-offramp-usdc-kes`); requests may use any case. */
export const CONNECTOR_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const connectorIdParam = z.pipe(
  z.string().check(z.regex(/^[A-Za-z0-9-]{1,64}$/, 'must be 1 to 64 letters, digits or hyphens')),
  z.transform((id: string) => id.toLowerCase()),
);

export const DIRECTIONS = ['ON_RAMP', 'OFF_RAMP'] as const;
export type Direction = (typeof DIRECTIONS)[number];
export const FLOWS = ['STANDARD', 'BESPOKE'] as const;
export type Flow = (typeof FLOWS)[number];

/** Limit scopes and their fixed durations in seconds (TRANSACTION: per transfer, so 0). */
export const LIMIT_DURATIONS = {
  TRANSACTION: 0,
  DAILY: 86_400,
  WEEKLY: 604_800,
  MONTHLY: 2_592_000,
} as const;
export type LimitScope = keyof typeof LIMIT_DURATIONS;

const caseInsensitiveEnum = <T extends string>(values: readonly T[]) =>
  z.pipe(
    z.pipe(
      z.string(),
      z.transform((v: string) => v.toUpperCase()),
    ),
    z.enum(values as [T, ...T[]], { message: `must be one of ${values.join(', ')}` }),
  );

/** Destinations call mobile money MOBILE_MONEY; connectors call it MOMO. The filter takes both. */
const METHOD_ALIASES: Record<string, string> = { MOBILE_MONEY: 'MOMO' };

export const listConnectorsQuery = z.strictObject({
  ...pageQueryShape,
  countryIsoCode2: z.optional(
    z.pipe(
      z.string().check(z.regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code (two letters)')),
      z.transform((v: string) => v.toUpperCase()),
    ),
  ),
  method: z.optional(
    z.pipe(
      z.string().check(z.regex(/^[A-Za-z0-9_]{1,32}$/, 'must be 1 to 32 letters, digits or underscores')),
      z.transform((v: string) => METHOD_ALIASES[v.toUpperCase()] ?? v.toUpperCase()),
    ),
  ),
  direction: z.optional(caseInsensitiveEnum(DIRECTIONS)),
  flow: z.optional(caseInsensitiveEnum(FLOWS)),
});
export type ConnectorFilters = Omit<z.infer<typeof listConnectorsQuery>, 'limit' | 'cursor'>;

export const connectorIdParams = z.strictObject({ connectorId: connectorIdParam });

export const getConnectorQuery = z.strictObject({
  transactionType: z._default(transactionTypeParam, 'C_2_C'),
});

export const requirementsQuery = z.strictObject({
  connectorId: connectorIdParam,
  transactionType: z._default(transactionTypeParam, 'C_2_C'),
});
