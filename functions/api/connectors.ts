// Lambda entry point: the operations of lib/operations on the shared Middy chain.
import { apiFunction } from '../../lib/api.ts';
import { connectorsOperations } from '../../lib/operations/connectors.ts';

export const handler = apiFunction('connectors', connectorsOperations);
