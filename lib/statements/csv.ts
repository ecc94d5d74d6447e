// A statement page as CSV (RFC 4180): a header row, then one row per line with the JSON's members in the
// same order, CRLF line ends, fields quoted when they hold a comma, a quote or a line break. A UTF-8
// byte order mark first, so a spreadsheet opens the arrows and names in descriptions as they are. Text
// a spreadsheet would run as a formula (=, +, -, @ first: names are the caller's own) gets a leading '.
import type { ExactNumber } from '../http/plain-json.ts';
import type { StatementLine } from './service.ts';

export const CSV_COLUMNS = [
  'rowId',
  'date',
  'direction',
  'amount',
  'assetCode',
  'runningBalance',
  'description',
  'reference',
  'transactionRecordId',
  'transactionType',
  'counterparty',
  'stellarTxHash',
] as const satisfies readonly (keyof StatementLine)[];

const BOM = '\uFEFF';

function field(value: string | ExactNumber | null): string {
  if (value === null) return '';
  // An amount: its JSON number's text, the same digits the JSON page has.
  const text = typeof value !== 'string' ? value.rawJSON : /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One page: each is a file of its own, so each has the header row. */
export function statementCsv(lines: StatementLine[]): string {
  const rows = lines.map((line) => CSV_COLUMNS.map((column) => field(line[column])).join(','));
  return [`${BOM}${CSV_COLUMNS.join(',')}`, ...rows].map((row) => `${row}\r\n`).join('');
}
