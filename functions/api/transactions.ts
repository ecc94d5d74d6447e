// Lambda entry point: the operations of lib/operations on the shared Middy chain.
import { apiFunction } from '../../lib/api.ts';
import { transactionsOperations } from '../../lib/operations/transactions.ts';

export const handler = apiFunction('transactions', transactionsOperations);
