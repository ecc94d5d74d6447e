// The verification decision's request (the sandbox helper): apart from the destination schemas, whose
// phone-number validation the sandbox function need not bundle.
import * as z from '../zod.ts';

export const sandboxDestinationParams = z.strictObject({ destinationId: z.uuid('must be a UUID') });

export const verificationDecisionBody = z.strictObject({ decision: z.enum(['APPROVED', 'REJECTED']) });
