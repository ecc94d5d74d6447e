// The caller's own identifier for its customer, apart from the registration schemas (schema.ts): the
// on-ramp requests name a customer, and this keeps the identity shapes (libphonenumber and its metadata)
// out of their bundle.
import * as z from '../zod.ts';

export const customerIdField = z
  .string()
  .check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -'));
