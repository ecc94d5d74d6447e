// A provider's notification as the provider contract has it (contract.ts): read only once its signature
// verified (authentication.ts), by the route's operation (lib/operations/providers.ts).
import * as z from '../zod.ts';
import { INSTRUCTION_STATUSES, type InstructionStatus } from './contract.ts';

export const providerNotificationParams = z.strictObject({
  environment: z.enum(['sandbox', 'production']),
  connectorId: z.string().check(z.regex(/^[a-z0-9-]{1,64}$/, 'must be a connector id')),
});

const id = z.string().check(z.minLength(1), z.maxLength(128));
const reason = z.optional(z.nullable(z.string().check(z.maxLength(500))));

export const providerNotificationBody = z.discriminatedUnion('kind', [
  z.object({
    notificationId: id,
    kind: z.enum(['payout', 'collection']),
    reference: id,
    providerReference: id,
    status: z.enum(INSTRUCTION_STATUSES as [InstructionStatus, ...InstructionStatus[]]),
    reason,
  }),
  z.object({
    notificationId: id,
    kind: z.literal('receipt'),
    receiptId: id,
    reference: id,
    amount: z.string().check(z.regex(/^\d{1,15}(\.\d{1,7})?$/, 'must be a decimal amount')),
    currency: z.string().check(z.regex(/^[A-Z]{3}$/, 'must be a currency code')),
  }),
  z.object({
    notificationId: id,
    kind: z.literal('customer'),
    reference: id,
    status: z.enum(['verified', 'rejected']),
    reason,
  }),
]);

export type ProviderNotification = z.infer<typeof providerNotificationBody>;

/** The body as the provider contract has it, or undefined (not JSON, or not the contract). */
export function notificationOf(rawBody: string): ProviderNotification | undefined {
  try {
    const parsed = providerNotificationBody.safeParse(JSON.parse(rawBody));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
