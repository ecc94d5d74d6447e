// `admin metrics` (lib/admin/metrics.ts): the embedded metric format lines of lib/metrics.ts summed per
// metric and full dimension set, lines older than the window and lines that are no metric left out.
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { summariseMetrics } from '../../lib/admin/metrics.ts';

const emf = (at: number, name: string, unit: string, value: number, dimensions: Record<string, string>) =>
  JSON.stringify({
    _aws: {
      Timestamp: at,
      CloudWatchMetrics: [
        {
          Namespace: 'payments-gateway/local',
          Dimensions: [['service', ...Object.keys(dimensions)], ['service']],
          Metrics: [{ Name: name, Unit: unit }],
        },
      ],
    },
    service: 'payments-gateway',
    associationId: 'never a dimension',
    ...dimensions,
    [name]: value,
  });

describe('admin metrics', () => {
  it('sums the window per metric and dimension values, with p50/p99/max of durations', () => {
    const now = Date.parse('2026-11-27T01:00:00Z');
    const lines = [
      emf(now - 20 * 60_000, 'PaymentAccepted', 'Count', 1, { environment: 'sandbox', type: 'p2p' }),
      emf(now - 60_000, 'PaymentAccepted', 'Count', 1, { environment: 'sandbox', type: 'p2p' }),
      emf(now - 50_000, 'PaymentAccepted', 'Count', 1, { environment: 'sandbox', type: 'p2p' }),
      emf(now - 40_000, 'PaymentAccepted', 'Count', 1, { environment: 'production', type: 'swap' }),
      ...[100, 200, 300, 4000].map((ms) => emf(now - 30_000, 'SettlementLatency', 'Milliseconds', ms, {})),
      JSON.stringify({ level: 'INFO', message: 'Payment accepted' }),
      'not json',
    ];
    const rows = summariseMetrics(lines, new Date(now - 15 * 60_000));
    assert.deepEqual(
      rows.map((row) => [row.metric, row.dimensions, row.count, row.sum, row.p50, row.p99, row.max]),
      [
        ['PaymentAccepted', 'environment=production type=swap', 1, 1, null, null, null],
        ['PaymentAccepted', 'environment=sandbox type=p2p', 2, 2, null, null, null],
        ['SettlementLatency', '', 4, 4600, 200, 4000, 4000],
      ],
    );
  });
});
