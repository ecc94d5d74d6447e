// The verification decision's request (the sandbox helper): apart from the destination schemas, whose
// phone-number validation the sandbox function need not bundle.
import { uuidField } from '../http/uuid-field.ts';
import * as z from '../zod.ts';

export const sandboxDestinationParams = z.strictObject({ destinationId: uuidField });

export const verificationDecisionBody = z.strictObject({ decision: z.enum(['APPROVED', 'REJECTED']) });
