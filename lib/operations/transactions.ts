import { listTransactionsQuery, transactionIdParams } from '../payments/schema.ts';
import { getTransaction, listTransactions } from '../payments/transactions.ts';
import { listOperation, readOperation } from './tenant-shapes.ts';

/** The operations of functions/api/transactions.ts, by the operation names of lib/routes.ts. */
export const transactionsOperations = {
  listTransactions: listOperation(listTransactionsQuery, listTransactions),
  getTransaction: readOperation(transactionIdParams, 'transactionId', getTransaction),
};
