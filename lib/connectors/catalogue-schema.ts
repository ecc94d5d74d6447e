// The connector catalogue file the admin CLI loads (and the local stack seeds). It carries internal
// members (settlement, fee, compliance) that no response ever shows: responses are built member by
// member in service.ts.
import { isCountryCode } from '../reference/countries.ts';
import { minorUnitsOf } from '../reference/currencies.ts';
import * as z from '../zod.ts';
import { CONNECTOR_ID_PATTERN, DIRECTIONS, FLOWS, LIMIT_DURATIONS, type LimitScope } from './schema.ts';
import { TRANSACTION_TYPES, type TransactionType } from './transaction-types.ts';
import { VOCABULARY_NAMES } from './vocabularies.ts';

/** Money in the file is a decimal string (`"0.5"`), never a float. */
const decimalString = z
  .string()
  .check(z.regex(/^\d{1,12}(\.\d{1,8})?$/, 'must be a non-negative decimal string'));
const upperCode = z
  .string()
  .check(z.regex(/^[A-Z0-9]{1,12}$/, 'must be 1 to 12 upper-case letters or digits'));
const iso4217 = (value: string) => minorUnitsOf(value) !== undefined;

const limit = z
  .strictObject({
    scope: z.enum(Object.keys(LIMIT_DURATIONS) as [LimitScope, ...LimitScope[]]),
    /** AMOUNT: value moved, in `currency`; COUNT: number of transfers (`currency` null). */
    type: z.enum(['AMOUNT', 'COUNT']),
    duration: z.number().check(z.int(), z.gte(0)),
    minValue: z.number().check(z.gte(0)),
    maxValue: z.number().check(z.positive()),
    currency: z.nullable(upperCode),
  })
  .check(
    z.superRefine((l, ctx) => {
      if (l.duration !== LIMIT_DURATIONS[l.scope])
        ctx.addIssue({
          code: 'custom',
          path: ['duration'],
          message: `must be ${LIMIT_DURATIONS[l.scope]} for scope ${l.scope}`,
        });
      if (l.minValue > l.maxValue)
        ctx.addIssue({ code: 'custom', path: ['minValue'], message: 'must not exceed maxValue' });
      if ((l.type === 'AMOUNT') !== (l.currency !== null))
        ctx.addIssue({
          code: 'custom',
          path: ['currency'],
          message: 'is required for AMOUNT and null for COUNT',
        });
    }),
  );
export type ConnectorLimit = z.infer<typeof limit>;

const executionStep = z.strictObject({
  step: z.number().check(z.int(), z.positive()),
  name: z.string().check(z.minLength(1), z.maxLength(120)),
  path: z.string().check(z.regex(/^\//, 'must start with /')),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  requestDefinition: z.record(z.string(), z.unknown()),
  responseDefinition: z.record(z.string(), z.unknown()),
  additionalInstructions: z.string(),
});
export type ExecutionStep = z.infer<typeof executionStep>;

/** One compliance field a connector needs: where it is given, its kind, and its vocabulary (for `enum`). */
const requirement = z
  .strictObject({
    field: z
      .string()
      .check(z.regex(/^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*$/, 'must be a member path')),
    type: z.enum(['string', 'date', 'country', 'phone', 'email', 'address', 'enum']),
    required: z.boolean(),
    vocabulary: z.optional(z.enum(VOCABULARY_NAMES)),
  })
  .check(
    z.superRefine((r, ctx) => {
      if ((r.type === 'enum') !== (r.vocabulary !== undefined))
        ctx.addIssue({ code: 'custom', path: ['vocabulary'], message: 'is required for enum fields only' });
    }),
  );
export type Requirement = z.infer<typeof requirement>;

const requirementSet = z.strictObject({
  sender: z.array(requirement),
  beneficiary: z.array(requirement),
  destination: z.array(requirement),
});
export type RequirementSet = z.infer<typeof requirementSet>;

const byTransactionType = <T extends z.core.SomeType>(value: T) =>
  z.partialRecord(z.enum(TRANSACTION_TYPES), value);

/** A catalogue entry as the admin CLI loads it (and the table keeps it). */
/** The transaction types a connector offers, each ONLINE or OFFLINE (also its response's shape). */
export const transactionTypes = z.array(
  z.strictObject({ type: z.enum(TRANSACTION_TYPES), status: z.enum(['ONLINE', 'OFFLINE']) }),
);

/** Which kinds of counterparties a connector serves (also its response's shape). */
export const supportedTransactionType = z.strictObject({
  b2b: z.boolean(),
  b2c: z.boolean(),
  c2b: z.boolean(),
  c2c: z.boolean(),
});

export const connectorEntry = z
  .strictObject({
    id: z
      .string()
      .check(
        z.maxLength(64),
        z.regex(CONNECTOR_ID_PATTERN, 'must be a lower-case slug (letters, digits, hyphens)'),
      ),
    name: z.string().check(z.minLength(1), z.maxLength(120)),
    description: z.string().check(z.minLength(1), z.maxLength(500)),
    direction: z.enum(DIRECTIONS),
    /** Payment method: BANK, MOMO, CASH… (upper case, letters, digits, underscore). */
    method: z
      .string()
      .check(z.regex(/^[A-Z0-9_]{1,32}$/, 'must be upper-case letters, digits or underscore')),
    flow: z.enum(FLOWS),
    status: z.enum(['ACTIVE', 'INACTIVE', 'MAINTENANCE']),
    isActive: z.boolean(),
    requiresQuote: z.boolean(),
    /** What the connector takes in: a registry asset (off-ramp) or an ISO 4217 currency (on-ramp). */
    acceptedAsset: upperCode,
    /** What it pays out: an ISO 4217 currency (off-ramp) or a registry asset (on-ramp). */
    destinationAsset: upperCode,
    region: z.strictObject({
      iso: z.string().check(z.regex(/^[A-Z]{2}$/, 'must be an upper-case alpha-2 code')),
    }),
    methodProvider: z.strictObject({
      name: z.string().check(z.minLength(1)),
      description: z.string(),
      imageUrl: z.url(),
    }),
    limits: z.array(limit),
    transactionTypes,
    supportedTransactionType,
    execution: byTransactionType(z.array(executionStep)),
    // ── internal: never part of a response ──
    /** Where the platform settles with the provider: off-ramp, the ledger account the wallet pays. */
    settlement: z.strictObject({
      account: z.string().check(z.minLength(1), z.maxLength(200)),
      currency: upperCode,
    }),
    /** The connector's own fee on the amount it accepts: percentage of it plus a fixed part. */
    fee: z.strictObject({ percentage: decimalString, fixed: decimalString, currency: upperCode }),
    /** The compliance fields each transaction type needs. */
    compliance: byTransactionType(requirementSet),
  })
  .check(
    z.superRefine((c, ctx) => {
      const issue = (path: (string | number)[], message: string) =>
        ctx.addIssue({ code: 'custom', path, message });
      if (!isCountryCode(c.region.iso))
        issue(['region', 'iso'], `${c.region.iso} is not an ISO 3166-1 country`);
      const fiat = c.direction === 'OFF_RAMP' ? 'destinationAsset' : 'acceptedAsset';
      if (!iso4217(c[fiat])) issue([fiat], `${c[fiat]} is not an ISO 4217 currency`);
      if (c.isActive !== (c.status === 'ACTIVE'))
        issue(['isActive'], 'must be true exactly when status is ACTIVE');
      if (c.fee.currency !== c.acceptedAsset) issue(['fee', 'currency'], 'must be the acceptedAsset');
      if (Number(c.fee.percentage) > 100) issue(['fee', 'percentage'], 'must be at most 100');
      if (c.direction === 'ON_RAMP' && c.flow === 'BESPOKE' && c.requiresQuote)
        issue(['requiresQuote'], 'must be false for a BESPOKE connector (it is not quoted)');
      c.limits.forEach((l, i) => {
        if (l.scope === 'TRANSACTION' && l.type === 'AMOUNT' && l.currency !== c.acceptedAsset)
          issue(['limits', i, 'currency'], 'a TRANSACTION AMOUNT limit must be in the acceptedAsset');
      });
      // Quotes are bounded: every connector says how much one transfer may move.
      if (!c.limits.some((l) => l.scope === 'TRANSACTION' && l.type === 'AMOUNT'))
        issue(['limits'], 'must include a TRANSACTION AMOUNT limit');
      const listed = new Set<TransactionType>();
      c.transactionTypes.forEach((t, i) => {
        if (listed.has(t.type)) issue(['transactionTypes', i, 'type'], 'is listed twice');
        listed.add(t.type);
      });
      for (const type of TRANSACTION_TYPES) {
        const key = type.replaceAll('_2_', '2').toLowerCase() as keyof typeof c.supportedTransactionType;
        if (c.supportedTransactionType[key] !== listed.has(type))
          issue(
            ['supportedTransactionType', key],
            `must be ${listed.has(type)}, as transactionTypes lists it`,
          );
        if ((c.execution[type] !== undefined) !== listed.has(type))
          issue(
            ['execution', type],
            listed.has(type) ? 'is required for a listed type' : 'is not a listed type',
          );
        if ((c.compliance[type] !== undefined) !== listed.has(type))
          issue(
            ['compliance', type],
            listed.has(type) ? 'is required for a listed type' : 'is not a listed type',
          );
        c.execution[type]?.forEach((s, i) => {
          if (s.step !== i + 1) issue(['execution', type, i, 'step'], `must be ${i + 1}`);
        });
      }
    }),
  );
export type ConnectorEntry = z.infer<typeof connectorEntry>;

export const connectorCatalogueFile = z.array(connectorEntry).check(
  z.superRefine((entries, ctx) => {
    const seen = new Set<string>();
    entries.forEach((entry, i) => {
      if (seen.has(entry.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: 'is a duplicate id' });
      seen.add(entry.id);
    });
  }),
);
