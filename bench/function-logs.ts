// What the local stack's functions printed over a run (local/function-output.ts keeps every line, as
// CloudWatch Logs would): the bytes a run adds to the log bill, and the metric series its EMF lines name.
import { readFileSync, statSync } from 'node:fs';

export interface FunctionLogs {
  bytes: number;
  metricSeries: number;
}

export const fileSize = (path: string): number => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

/** The bytes a log file grew by since `from`, and the metric series its EMF lines named meanwhile. */
export function logsOver(path: string, from: number): FunctionLogs {
  const text = readFileSync(path).subarray(from).toString('utf8');
  const series = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.includes('"_aws"')) continue;
    const emf = JSON.parse(line) as {
      _aws: { CloudWatchMetrics: { Dimensions: string[][]; Metrics: { Name: string }[] }[] };
    } & Record<string, unknown>;
    for (const directive of emf._aws.CloudWatchMetrics)
      for (const dimensions of directive.Dimensions)
        for (const metric of directive.Metrics)
          series.add(`${metric.Name}|${dimensions.map((d) => `${d}=${emf[d]}`).join(',')}`);
  }
  return { bytes: Buffer.byteLength(text), metricSeries: series.size };
}
