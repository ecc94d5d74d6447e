// The portal's people: sign-in by a one-time code sent by email, a session per person, and the team of
// each tenant (owner, developer, viewer). Shapes are 400s naming the member.
import { pageQueryShape } from '../http/pagination.ts';
import { uuidField } from '../http/uuid-field.ts';
import { PERSON_ROLES } from '../routes.ts';
import * as z from '../zod.ts';

export { PERSON_ROLES as ROLES, type PersonRole as Role } from '../routes.ts';

/** An email address, read in lower case: one person, one spelling. */
const emailField = z.email('must be an email address').check(z.maxLength(254), z.toLowerCase());

export const signInBody = z.strictObject({ email: emailField });

export const sessionBody = z.strictObject({
  email: emailField,
  code: z.string().check(z.regex(/^\d{8}$/, 'must be the 8 digits the email gave')),
});

export const portalTokenBody = z.strictObject({
  environment: z.optional(z.enum(['sandbox', 'production'])),
  associationId: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
});

export const inviteBody = z.strictObject({ email: emailField, role: z.enum(PERSON_ROLES) });

export const memberIdParams = z.strictObject({ memberId: uuidField });

export const auditQuery = z.strictObject(pageQueryShape);
