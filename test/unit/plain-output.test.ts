// What `npm test` and the other toolchain commands print is read in CI logs and files as often as on a
// terminal: colour codes only for a person at a terminal (scripts/toolchain.mjs sets NO_COLOR otherwise).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, it } from 'vitest';

const run = promisify(execFile);

const noColourSeenBy = async (env: NodeJS.ProcessEnv) =>
  (
    await run(
      process.execPath,
      ['scripts/toolchain.mjs', 'node', '-e', 'console.log(process.env.NO_COLOR)'],
      {
        env,
      },
    )
  ).stdout.trim();

describe('toolchain output', () => {
  it('turns colour off for every step with CI set or off a terminal, even when FORCE_COLOR asks for it', async () => {
    const { NO_COLOR: _, ...env } = process.env;
    // execFile's stdout is a pipe, not a terminal.
    assert.equal(await noColourSeenBy(env), '1');
    assert.equal(await noColourSeenBy({ ...env, CI: 'true', FORCE_COLOR: '1' }), '1');
  });
});
