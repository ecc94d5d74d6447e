// Lambda entry point: the operations of lib/operations on the shared Middy chain.
import { apiFunction } from '../../lib/api.ts';
import { walletsOperations } from '../../lib/operations/wallets.ts';

export const handler = apiFunction('wallets', walletsOperations);
