import { ok, operation, type Reply } from '../http/api-function.ts';
import { API_PREFIX } from '../routes.ts';
import { statementCsv } from '../statements/csv.ts';
import { statementQuery } from '../statements/schema.ts';
import { getStatement, type Statement } from '../statements/service.ts';

/** `Accept: text/csv` (before any JSON type the header lists) asks for the page as CSV. */
function wantsCsv(accept: string | undefined): boolean {
  const types = (accept ?? '')
    .split(',')
    .map((range) => range.split(';'))
    .filter(([, ...params]) => !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p)))
    .map(([type]) => (type ?? '').trim().toLowerCase());
  const csv = types.indexOf('text/csv');
  const json = types.findIndex((type) => type === 'application/json' || type === 'application/*');
  return csv !== -1 && (json === -1 || csv < json);
}

/**
 * The CSV of one page; the next page's address is the `Link` header's `rel="next"` (RFC 8288), over the
 * range as this page read it, so a download followed page by page is one consistent export.
 */
function csvReply(statement: Statement, limit: number): Reply {
  const { nextCursor } = statement.pagination;
  const next = new URLSearchParams({
    walletId: statement.walletId,
    assetCode: statement.assetCode,
    startDate: statement.startDate,
    endDate: statement.endDate,
    limit: String(limit),
    ...(nextCursor ? { cursor: nextCursor } : {}),
  });
  return {
    status: 200,
    text: statementCsv(statement.data),
    headers: {
      'Content-Type': 'text/csv; charset=utf-8; header=present',
      'Content-Disposition': `attachment; filename="statement-${statement.walletId}-${statement.assetCode}.csv"`,
      ...(nextCursor ? { Link: `<${API_PREFIX}/statements/transactions?${next}>; rel="next"` } : {}),
    },
  };
}

/** The operations of functions/api/statements.ts, by the operation names of lib/routes.ts. */
export const statementsOperations = {
  getStatement: operation({
    query: statementQuery,
    handle: async ({ tenant, query, headers }) => {
      const statement = await getStatement(tenant, query);
      return wantsCsv(headers.accept) ? csvReply(statement, query.limit) : ok(statement);
    },
  }),
};
