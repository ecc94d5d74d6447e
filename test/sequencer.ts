// The order test files start in: longest first, from test/durations.json (seconds per file, from a past
// run's report; `node scripts/toolchain.mjs node scripts/test-durations.ts` writes it again). Two workers
// take files from one queue: with the long files first, what is left at the end is short files that even
// out the two workers, not a two-minute file started last while the other worker sits idle. vitest's own
// order reads durations from its cache, which a clean clone (CI) does not have, and falls back to size.
// A file the table does not name yet starts first: it may be long, and at the start it cannot run late.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const table = JSON.parse(readFileSync(new URL('durations.json', import.meta.url), 'utf8')) as Record<
  string,
  number
>;

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = (spec: TestSpecification) =>
      table[relative(spec.project.config.root, spec.moduleId).replaceAll('\\', '/')] ?? Infinity;
    // By path on equal times (a stable order, run to run).
    return [...files].sort(
      (a, b) => seconds(b) - seconds(a) || (a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0),
    );
  }
}
