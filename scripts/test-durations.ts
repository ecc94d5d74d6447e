// Writes test/durations.json, the table test/sequencer.ts orders test files by, from the last run's
// report (.local/vitest-report.json, which vitest.config.ts has every run write): each file's seconds from
// its first test's start to its last test's end. A run of some files updates theirs and keeps the rest;
// files that no longer exist leave the table. Run it after a full `npm test` on a quiet machine:
//   node scripts/toolchain.mjs node scripts/test-durations.ts
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Report {
  testResults: { name: string; startTime: number; endTime: number }[];
}

const root = fileURLToPath(new URL('..', import.meta.url));
const tablePath = join(root, 'test', 'durations.json');
const report = JSON.parse(readFileSync(join(root, '.local', 'vitest-report.json'), 'utf8')) as Report;
const table = (existsSync(tablePath) ? JSON.parse(readFileSync(tablePath, 'utf8')) : {}) as Record<
  string,
  number
>;

for (const file of report.testResults) {
  const path = relative(root, file.name).replaceAll('\\', '/');
  table[path] = Math.round((file.endTime - file.startTime) / 100) / 10;
}
const kept = Object.entries(table)
  .filter(([path]) => existsSync(join(root, path)))
  .sort(([a], [b]) => (a < b ? -1 : 1));
writeFileSync(tablePath, `${JSON.stringify(Object.fromEntries(kept), null, 2)}\n`);
const total = kept.reduce((sum, [, seconds]) => sum + seconds, 0);
console.log(`${tablePath}: ${kept.length} files, ${total.toFixed(1)} s in all`);
