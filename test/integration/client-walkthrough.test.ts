// The typed client (clients/typescript) as a new integrator uses it: its types generated from the
// current document and compiled the way `npm run build` does, examples/walkthrough.ts compiled with
// `tsc --strict` against it (through the workspace link, as `npm install ./clients/typescript` gives
// it), then run against the test stack as the seeded sandbox tenant, a webhook verified in one call.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, it } from 'vitest';
import { openApiDocument } from '../../lib/openapi/document.ts';
import { baseUrl } from '../support/api.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const exec = promisify(execFile);
const run = (file: string, args: string[], env: NodeJS.ProcessEnv = process.env) =>
  exec(file, args, { cwd: root, env }).catch((error: { stdout: string; stderr: string }) =>
    assert.fail(`${file} ${args.join(' ')} failed:\n${error.stdout}\n${error.stderr}`),
  );

describe('clients/typescript and examples/walkthrough.ts', () => {
  it('builds, compiles the walkthrough strictly, and runs it against the stack', {
    timeout: 180_000,
  }, async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'client-'));
    const documentFile = join(scratch, 'openapi.json');
    writeFileSync(documentFile, JSON.stringify(openApiDocument()));
    await run(process.execPath, [
      'scripts/client-types.ts',
      documentFile,
      'clients/typescript/src/generated/api.ts',
    ]);
    await run(bin('tsc'), ['-p', 'clients/typescript']);
    await run(bin('tsc'), ['-p', 'examples/tsconfig.json', '--strict']);

    // The members `npm start` writes to .local/credentials.json, for the test stack.
    const credentials = join(scratch, 'credentials.json');
    writeFileSync(
      credentials,
      JSON.stringify({ ...JSON.parse(process.env.TEST_SEEDED_TENANT ?? '{}'), baseUrl: baseUrl() }),
    );
    const { stdout, stderr } = await run(process.execPath, ['examples/walkthrough.ts'], {
      ...process.env,
      CREDENTIALS: credentials,
    });
    assert.equal(stderr, '');
    assert.match(stdout, /\bUSDC\b/);
    assert.match(stdout, /USDC 1000\.0000000/);
    assert.match(stdout, /\ntrue true\ncompleted p2p\ntrue\n/, 'replayed with the same id, settled, listed');
    assert.match(stdout, /\n400 must have at most 7 decimal places\n/);
    assert.match(stdout, /\nverified payment\.\w+\n/);
    assert.match(stdout, /\n== Done\n$/);
  });
});
