// The document as a tool nobody here wrote reads it: Redocly CLI's recommended rules (the CLI is a dev
// dependency and runs offline; telemetry and the update check are off), with no warning allowed.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'vitest';
import { openApiDocument } from '../../openapi/document.ts';

const run = promisify(execFile);
const redocly = new URL('../../node_modules/.bin/redocly', import.meta.url).pathname;

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
}

describe('redocly lint (recommended rules)', () => {
  it('finds no error and no warning in the document', { timeout: 0 }, async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'openapi-lint-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(openApiDocument()));
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    // It exits non-zero on errors: the report on stdout says which, either way.
    const { stdout } = await run(redocly, ['lint', file, '--format=json'], { env }).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout }),
    );
    const report = JSON.parse(stdout) as LintReport;
    const problems = report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    assert.deepEqual(problems, []);
    assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 });
  });
});
