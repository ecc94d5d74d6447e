// Percentiles and plain-text tables.

/** Nearest-rank percentile of an ascending array (p in 0..100); NaN for an empty one. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export const median = (values: readonly number[]): number =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** `min / median / max` of the values, each with `digits` decimals: a throughput section's spread over its runs. */
export function minMedianMax(values: readonly number[], digits: number): string {
  const sorted = [...values].sort((a, b) => a - b);
  return [sorted[0] ?? Number.NaN, percentile(sorted, 50), sorted.at(-1) ?? Number.NaN]
    .map((v) => fixed(v, digits))
    .join(' / ');
}

export interface Summary {
  /** Requests completed (successes and failures). */
  n: number;
  failures: number;
  /** Over successful requests only, in ms. */
  p50: number;
  p99: number;
  /** Completed requests per second of wall time. */
  rps: number;
  /** True when the time cap stopped the case before `requests` were made. */
  capped: boolean;
  firstFailure?: string | undefined;
}

export function summarize(
  latencies: number[],
  failures: number,
  wallMs: number,
  capped: boolean,
  firstFailure?: string,
): Summary {
  const sorted = [...latencies].sort((a, b) => a - b);
  const n = latencies.length + failures;
  return {
    n,
    failures,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    rps: n / (wallMs / 1000),
    capped,
    firstFailure,
  };
}

export const fixed = (value: number, digits = 2): string =>
  Number.isFinite(value) ? value.toFixed(digits) : '-';

/** Columns padded to their widest cell: the first left-aligned, the others right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The columns of a route beside its backend floor (bench/run.ts sections 1+2, bench/payments.ts section 5). */
export const ROUTE_VS_FLOOR_COLUMNS = [
  'route',
  'c',
  'n',
  'fail',
  'p50',
  'p99',
  'req/s',
  'floor n',
  'fail',
  'floor p50',
  'floor p99',
  'floor req/s',
  'p50 route/floor',
  'p99 route/floor',
];

const ms = (value: number) => fixed(value, 2);
const count = (s: Summary) => `${s.n}${s.capped ? '*' : ''}`;
const ratio = (a: number, b: number) => `${fixed(a / b, 2)}x`;

/** One row under ROUTE_VS_FLOOR_COLUMNS: the route's figures, its floor's, and their ratios. */
export const routeVsFloorRow = (
  name: string,
  concurrency: number,
  route: Summary,
  floor: Summary,
): string[] => [
  name,
  String(concurrency),
  count(route),
  String(route.failures),
  ms(route.p50),
  ms(route.p99),
  fixed(route.rps, 0),
  count(floor),
  String(floor.failures),
  ms(floor.p50),
  ms(floor.p99),
  fixed(floor.rps, 0),
  ratio(route.p50, floor.p50),
  ratio(route.p99, floor.p99),
];
