// Lambda entry point: the operations of lib/operations on the shared Middy chain.
import { apiFunction } from '../../lib/api.ts';
import { providersOperations } from '../../lib/operations/providers.ts';

export const handler = apiFunction('providers', providersOperations);
