// `npm run admin -- metrics`: what the dashboard would show of the local stack, from the embedded metric
// format lines its functions wrote (local/function-output.ts), as CloudWatch reads the same lines in
// AWS: per metric and per value of its full dimension set, the count of values, their sum, and for
// durations p50, p99 and the maximum.

export interface MetricRow {
  metric: string;
  /** The full dimension set but `service`, as `name=value` pairs; empty for a metric without any. */
  dimensions: string;
  unit: string;
  count: number;
  sum: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
}

interface EmfLine {
  _aws?: {
    Timestamp?: number;
    CloudWatchMetrics?: { Dimensions?: string[][]; Metrics?: { Name: string; Unit?: string }[] }[];
  };
  [member: string]: unknown;
}

/** The value at quantile `q` (0–1) of sorted `values`, as CloudWatch's pNN (nearest rank). */
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;

/** The metrics of the lines written at or after `since`, sorted by metric and dimensions. */
export function summariseMetrics(lines: readonly string[], since: Date): MetricRow[] {
  const groups = new Map<string, { metric: string; dimensions: string; unit: string; values: number[] }>();
  for (const text of lines) {
    if (!text.includes('"_aws"')) continue;
    let line: EmfLine;
    try {
      line = JSON.parse(text) as EmfLine;
    } catch {
      continue;
    }
    const aws = line._aws;
    if (!aws || (aws.Timestamp ?? 0) < since.getTime()) continue;
    for (const directive of aws.CloudWatchMetrics ?? []) {
      const names = (directive.Dimensions?.[0] ?? []).filter((name) => name !== 'service');
      const dimensions = names.map((name) => `${name}=${String(line[name])}`).join(' ');
      for (const { Name, Unit = 'None' } of directive.Metrics ?? []) {
        const value = Number(line[Name]);
        if (!Number.isFinite(value)) continue;
        const key = `${Name}\u0000${dimensions}`;
        const group = groups.get(key) ?? { metric: Name, dimensions, unit: Unit, values: [] };
        group.values.push(value);
        groups.set(key, group);
      }
    }
  }
  return [...groups.values()]
    .map(({ metric, dimensions, unit, values }) => {
      const sorted = [...values].sort((a, b) => a - b);
      const timed = unit === 'Milliseconds';
      return {
        metric,
        dimensions,
        unit,
        count: values.length,
        sum: values.reduce((total, value) => total + value, 0),
        p50: timed ? quantile(sorted, 0.5) : null,
        p99: timed ? quantile(sorted, 0.99) : null,
        max: timed ? (sorted.at(-1) as number) : null,
      };
    })
    .sort((a, b) => a.metric.localeCompare(b.metric) || a.dimensions.localeCompare(b.dimensions));
}

/** The rows as an aligned text table. */
export function metricsTable(rows: readonly MetricRow[]): string {
  const header = ['metric', 'dimensions', 'count', 'sum', 'p50 ms', 'p99 ms', 'max ms'];
  const cells = rows.map((row) => [
    row.metric,
    row.dimensions || '-',
    String(row.count),
    String(row.sum),
    ...[row.p50, row.p99, row.max].map((value) => (value === null ? '' : String(value))),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((cell) => (cell[column] as string).length)),
  );
  return [header, ...cells]
    .map((cell) =>
      cell
        .map((text, i) => text.padEnd(widths[i] as number))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
