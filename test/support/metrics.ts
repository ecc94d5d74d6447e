// The embedded-metric-format lines a function prints while a test runs it in this process (Powertools
// Metrics writes each to stdout as one JSON object with an `_aws` member): kept here instead of printed.
export type MetricLine = Record<string, unknown>;

export function captureMetrics(): { lines: MetricLine[]; restore(): void } {
  const lines: MetricLine[] = [];
  const original = process.stdout.write;
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    const metrics = text
      .split('\n')
      .filter((line) => line.includes('"_aws"'))
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as MetricLine];
        } catch {
          return [];
        }
      });
    if (metrics.length === 0)
      return (original as (...args: unknown[]) => boolean).call(process.stdout, chunk, ...rest);
    lines.push(...metrics);
    (rest.find((arg) => typeof arg === 'function') as (() => void) | undefined)?.();
    return true;
  }) as typeof process.stdout.write;
  return {
    lines,
    restore: () => {
      process.stdout.write = original;
    },
  };
}
