// A test that needs a tool this machine may lack (python3, curl, a Node 20) is skipped without it on a
// developer's machine, but never under CI (CI set): there it runs and fails saying what is missing, so a
// green CI proves what the test claims rather than skipping it quietly.
import assert from 'node:assert/strict';

/** skipIf's condition: the tool is missing, and this is not CI. */
export const skipWithout = (present: boolean): boolean => !present && !process.env.CI;

/** The first step of such a test: under CI, a missing tool fails it here, by name. */
export function assertTool(tool: string, present: boolean): void {
  assert.ok(present, `${tool} is not installed: CI (CI is set) must have it, so that this test runs`);
}
