// A run leaves nothing in the system temp folder: every test file's temporary files (and those of the
// processes it starts: CDK's cdk.out*, bundles, credentials files) go under one root that test/setup.ts
// makes and removes at teardown.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { describe, it } from 'vitest';

describe('temporary files', () => {
  it("go under the run's one root, in this process and in the processes it starts", () => {
    const root = process.env.TEST_TMP_ROOT;
    assert.ok(root, 'test/setup.ts names the root');
    assert.match(root, /payments-gateway-test-[^/]+$/);
    assert.equal(tmpdir(), root);
    assert.equal(
      execFileSync(process.execPath, ['-p', 'require("node:os").tmpdir()']).toString().trim(),
      root,
    );
    assert.notEqual(dirname(root), root);
  });
});
