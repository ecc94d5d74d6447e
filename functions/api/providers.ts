// Lambda entry point: the operations of lib/operations on the shared Middy chain, whose authentication
// step checks the provider's signature (lib/provider-api.ts).
import { providersOperations } from '../../lib/operations/providers.ts';
import { providerApiFunction } from '../../lib/provider-api.ts';

export const handler = providerApiFunction('providers', providersOperations);
