import { ok, operation } from '../http/api-function.ts';
import { listTransactionsQuery, transactionIdParams } from '../payments/schema.ts';
import { getTransaction, listTransactions } from '../payments/transactions.ts';

/** The operations of functions/api/transactions.ts, by the operation names of lib/routes.ts. */
export const transactionsOperations = {
  listTransactions: operation({
    query: listTransactionsQuery,
    handle: async ({ tenant, query }) => ok(await listTransactions(tenant, query)),
  }),
  getTransaction: operation({
    params: transactionIdParams,
    handle: async ({ tenant, params }) => ok(await getTransaction(tenant, params.transactionId)),
  }),
};
