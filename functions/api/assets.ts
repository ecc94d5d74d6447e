// Lambda entry point: the operations of lib/operations on the shared Middy chain.
import { apiFunction } from '../../lib/api.ts';
import { assetsOperations } from '../../lib/operations/assets.ts';

export const handler = apiFunction('assets', assetsOperations);
