// Lambda entry point: the operations of lib/operations on the shared Middy chain.
import { apiFunction } from '../../lib/api.ts';
import { webhooksOperations } from '../../lib/operations/webhooks.ts';

export const handler = apiFunction('webhooks', webhooksOperations);
