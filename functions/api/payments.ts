// Lambda entry point: the operations of lib/operations on the shared Middy chain.
import { apiFunction } from '../../lib/api.ts';
import { paymentsOperations } from '../../lib/operations/payments.ts';

export const handler = apiFunction('payments', paymentsOperations);
