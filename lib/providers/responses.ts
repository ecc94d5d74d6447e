// What the provider-notification route answers.
import * as z from '../zod.ts';

export const providerNotificationReceipt = z.strictObject({ received: z.literal(true) });
