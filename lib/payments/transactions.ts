// Reading transaction records (docs/decisions/transaction-records.md). The path's id is the
// transactionRecordId; the caller's own transactionId finds the same record (its id is derived from it,
// record-ids.ts), so an integrator that lost the 202 can still read the outcome. Another association's record
// is not found, as a missing one.
//
// The transactionId is looked up first: a caller may send, as a later payment's transactionId, a value
// that is already an earlier record's id, and that id must then name the payment the caller made with
// it. The earlier record stays readable by its own transactionId; a record id that is no one's
// transactionId still finds its record.
import { notFound } from '../http/problem.ts';
import type { Tenant } from '../tenant.ts';
import { transactionRecordIdOf } from './record-ids.ts';
import { findTransaction, findTransactions, listTransactionPage, type TransactionRecord } from './repo.ts';

export type { TransactionRecord };

import { toTransactionResource } from './responses.ts';
import type { ListTransactionsQuery } from './schema.ts';
import { timelineOf } from './timeline.ts';

/** Strongly consistent: the caller may read the record the moment the 202 arrives. */
const consistent = { consistent: true };

export async function getTransaction(tenant: Tenant, id: string) {
  const record =
    (await findTransaction(tenant, transactionRecordIdOf(tenant, id), consistent)) ??
    (await findTransaction(tenant, id, consistent));
  if (!record) throw notFound(`No transaction ${id}.`);
  return { ...toTransactionResource(record), timeline: timelineOf(record) };
}

export async function listTransactions(tenant: Tenant, query: ListTransactionsQuery) {
  const { limit, cursor, ...filters } = query;
  const page = await listTransactionPage(tenant, filters, { limit, cursor });
  return { data: page.data.map(toTransactionResource), pagination: page.pagination };
}

/** Records by id (missing ones left out): what another domain (statements) joins to ledger lines. */
export const transactionRecordsOf = (tenant: Tenant, ids: string[]): Promise<TransactionRecord[]> =>
  findTransactions(tenant, ids);
