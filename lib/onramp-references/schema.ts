// On-ramp reference requests (docs/decisions/bespoke-customers.md). The list is page-numbered, as the
// contract has it: pageNumber ≥ 1 and pageSize 1–100 (bad ones → 400 naming them).
import { connectorIdParam } from '../connectors/schema.ts';
import { customerIdField } from '../customers/customer-id.ts';
import { uuidField } from '../http/uuid-field.ts';
import * as z from '../zod.ts';

/** A reference as providers issue them: upper-case letters and digits. */
export const referenceParams = z.strictObject({
  reference: z.string().check(z.regex(/^[A-Z0-9]{6,32}$/, 'must be 6 to 32 upper-case letters or digits')),
});

export const createReferenceBody = z.strictObject({
  customerId: customerIdField,
  connectorId: connectorIdParam,
  walletId: uuidField,
});
export type CreateReference = z.infer<typeof createReferenceBody>;

/** A whole number from the query, within [min, max], `fallback` when absent. */
const wholeNumber = (min: number, max: number, fallback: number) =>
  z.pipe(
    z.optional(z.string()),
    z.transform((value: string | undefined, ctx) => {
      if (value === undefined) return fallback;
      if (!/^\d{1,9}$/.test(value) || Number(value) < min || Number(value) > max) {
        ctx.issues.push({
          code: 'custom',
          message: `must be a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}`,
          input: value,
        });
        return z.NEVER;
      }
      return Number(value);
    }),
  );

export const MAX_PAGE_SIZE = 100;

export const listReferencesQuery = z.strictObject({
  pageNumber: wholeNumber(1, Number.MAX_SAFE_INTEGER, 1),
  pageSize: wholeNumber(1, MAX_PAGE_SIZE, 20),
  customerId: z.optional(customerIdField),
  connectorId: z.optional(connectorIdParam),
  walletId: z.optional(uuidField),
  isActive: z.optional(z.enum(['true', 'false'], { message: 'must be true or false' })),
});
export type ListReferencesQuery = z.infer<typeof listReferencesQuery>;

/** The largest payment the sandbox helper takes (the seed connector's TRANSACTION limit is 1,000,000). */
export const MAX_SANDBOX_RECEIPT = 1_000_000_000;

/** Sandbox: what a customer pays into a reference, in fiat with at most 2 decimals (cents). */
export const receiptAmount = z.number().check(
  z.positive('must be greater than 0'),
  z.lte(MAX_SANDBOX_RECEIPT, `must be at most ${MAX_SANDBOX_RECEIPT}`),
  z.refine(
    (value) => Number.isInteger(Number((value * 100).toFixed(6))),
    'must have at most 2 decimal places',
  ),
);

/** Sandbox: a customer paying into a reference. */
export const sandboxReceiptBody = z.strictObject({
  amount: receiptAmount,
  currency: z.string().check(z.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code in upper case')),
});

export const MAX_ACTIVATIONS = 100;

/** PUT /onramp/references: activation of up to 100 of the caller's references, all or none. */
export const activationBody = z.strictObject({
  references: z
    .array(z.strictObject({ reference: referenceParams.shape.reference, isActive: z.boolean() }))
    .check(
      z.minLength(1, 'must name at least one reference'),
      z.maxLength(MAX_ACTIVATIONS, `must name at most ${MAX_ACTIVATIONS} references`),
      z.superRefine((list, ctx) => {
        const seen = new Set<string>();
        list.forEach((item, i) => {
          if (seen.has(item.reference))
            ctx.addIssue({ code: 'custom', path: [i, 'reference'], message: 'is named twice' });
          seen.add(item.reference);
        });
      }),
    ),
});
export type Activation = z.infer<typeof activationBody>;

/** PUT /onramp/references/{reference}: the own wallet receipts on it are paid to from now on. */
export const moveBody = z.strictObject({ walletId: uuidField });
