import * as z from '../zod.ts';

export const tokenRequest = z.object({
  clientId: z.string().check(z.minLength(1), z.maxLength(128)),
  clientSecret: z.string().check(z.minLength(1), z.maxLength(256)),
});
