import * as z from 'zod';

export const tokenRequest = z.object({
  clientId: z.string().min(1).max(128),
  clientSecret: z.string().min(1).max(256),
});
