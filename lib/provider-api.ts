// The providers function's composition root: lib/api.ts's chain with the provider caller kind's
// authentication step (lib/providers/authentication.ts), apart so that no other function bundles it.
import { chainServices } from './api.ts';
import { apiFunctionWith } from './http/api-function.ts';
import { authenticateProvider } from './providers/authentication.ts';

export const providerApiFunction = apiFunctionWith({
  ...chainServices,
  authenticator: { ...chainServices.authenticator, provider: authenticateProvider },
});
