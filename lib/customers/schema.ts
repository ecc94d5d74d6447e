// Customer registration requests (docs/decisions/bespoke-customers.md). The body is the identity, in the
// shapes the beneficiary routes use (an individual's or a business's members, at the top level): shape errors
// are 400s here; which members the connector's provider needs is the service's 422 (one error each).
import { business, individual } from '../beneficiaries/schema.ts';

export const individualRegistration = individual;
export const businessRegistration = business;
export type Identity = Record<string, unknown>;

export const KINDS = ['individual', 'business'] as const;
export type CustomerKind = (typeof KINDS)[number];
