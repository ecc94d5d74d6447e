// The caller's own identifier for its customer (and a registration's path), apart from the registration
// schemas (schema.ts): the on-ramp requests and the sandbox's decision name a customer, and this keeps
// the identity shapes (libphonenumber and its metadata) out of their bundles.
import { connectorIdParam } from '../connectors/schema.ts';
import * as z from '../zod.ts';

export const customerIdField = z
  .string()
  .check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -'));

/** A registration's path: the customer and the connector it registers with. */
export const customerParams = z.strictObject({ customerId: customerIdField, connectorId: connectorIdParam });
