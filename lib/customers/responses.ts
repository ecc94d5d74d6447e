// What the customer routes answer (docs/decisions/bespoke-customers.md): a registration as the caller reads
// it, and what the Customer_Verified / Customer_Rejected events carry in `data`.
import { businessResource, individualResource } from '../beneficiaries/responses.ts';
import * as z from '../zod.ts';
import type { CustomerRecord } from './repo.ts';

export const customerResource = z.strictObject({
  customerId: z.string(),
  connectorId: z.string(),
  kind: z.enum(['individual', 'business']),
  status: z
    .enum(['PENDING', 'VERIFIED', 'REJECTED'])
    .check(z.describe('PENDING while the provider reviews; its decision moves it (and emits the event).')),
  review: z
    .number()
    .check(z.int(), z.describe('1 for the first review; a changed body after a decision starts the next.')),
  individual: z.optional(individualResource),
  business: z.optional(businessResource),
  reason: z.nullable(z.string()).check(z.describe('Why the provider rejected the customer.')),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  decidedAt: z.nullable(z.iso.datetime()),
});

export function toCustomerResource(record: CustomerRecord): z.infer<typeof customerResource> {
  return {
    customerId: record.customerId,
    connectorId: record.connectorId,
    kind: record.kind,
    status: record.status,
    review: record.review,
    [record.kind]: record.identity,
    reason: record.reason,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    decidedAt: record.decidedAt,
  };
}

export const customerExample: z.infer<typeof customerResource> = {
  customerId: 'cust-00412',
  connectorId: 'za-bank-onramp-zar-usdc',
  kind: 'individual',
  status: 'PENDING',
  review: 1,
  individual: {
    firstName: 'Thandi',
    lastName: 'Nkosi',
    dateOfBirth: '1990-04-12',
    idType: 'NATIONAL_ID',
    idNumber: '9004120123086',
    idCountryIsoCode2: 'ZA',
  },
  reason: null,
  createdAt: '2026-11-23T09:30:00.000Z',
  updatedAt: '2026-11-23T09:30:00.000Z',
  decidedAt: null,
};

/** What the sandbox decision helper answers. */
export const customerDecisionResource = z.strictObject({
  customerId: z.string(),
  connectorId: z.string(),
  decision: z.enum(['VERIFIED', 'REJECTED']),
  message: z.string(),
});
