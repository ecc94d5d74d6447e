// Lambda entry point: the operations of lib/operations on the shared Middy chain.
import { apiFunction } from '../../lib/api.ts';
import { authOperations } from '../../lib/operations/auth.ts';

export const handler = apiFunction('auth', authOperations);
