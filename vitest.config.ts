// One run over the whole suite: the global setup starts the real local stack once; each test file runs
// in a process of its own (files change process.env and module state), two at a time on two cores.
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/sequencer.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup.ts'],
    setupFiles: ['test/support/stack-env.ts'],
    pool: 'forks',
    isolate: true,
    maxWorkers: 2,
    // Longest files first (test/durations.json): the run does not end on one long file.
    sequence: { sequencer: LongestFirst },
    // Real components (DynamoDB Local, the ledger, SQS) answer in milliseconds, but a cold JVM or a
    // ledger close can take seconds; nothing here is timed, these only stop a hung test.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', ['json', { outputFile: '.local/vitest-report.json' }]],
  },
});
