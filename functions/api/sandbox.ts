// Lambda entry point: the operations of lib/operations on the shared Middy chain.
import { apiFunction } from '../../lib/api.ts';
import { sandboxOperations } from '../../lib/operations/sandbox.ts';

export const handler = apiFunction('sandbox', sandboxOperations);
