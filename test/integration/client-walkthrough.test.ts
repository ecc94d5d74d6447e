// The typed client (clients/typescript) as a new integrator uses it: its types generated from the
// current document and compiled the way `npm run build` does, examples/walkthrough.ts compiled with
// `tsc --strict` against it (through the workspace link, as `npm install ./clients/typescript` gives
// it), then run against the test stack as the seeded sandbox tenant, a webhook verified in one call.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, it } from 'vitest';
import { openApiDocument } from '../../openapi/document.ts';
import { baseUrl } from '../support/api.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const exec = promisify(execFile);
const run = (file: string, args: string[], env: NodeJS.ProcessEnv = process.env) =>
  exec(file, args, { cwd: root, env }).catch((error: { stdout: string; stderr: string }) =>
    assert.fail(`${file} ${args.join(' ')} failed:\n${error.stdout}\n${error.stderr}`),
  );

describe('clients/typescript and examples/walkthrough.ts', () => {
  let scratch: string;
  // Its types generated from the current document, compiled as `npm run build` does: CPU-bound work,
  // no test clock.
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'client-'));
    const documentFile = join(scratch, 'openapi.json');
    writeFileSync(documentFile, JSON.stringify(openApiDocument()));
    await run(process.execPath, [
      'scripts/client-types.ts',
      documentFile,
      'clients/typescript/src/generated/api.ts',
    ]);
    await run(bin('tsc'), ['-p', 'clients/typescript']);
  }, 0);

  it('compiles the walkthrough strictly, and runs it against the stack', { timeout: 0 }, async () => {
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
    assert.match(stdout, /^assets: .*\bUSDC\b/m);
    assert.match(stdout, /^own wallet balances: .*USDC 1000\.0000000/m);
    assert.match(
      stdout,
      /\nP2P replay isIdempotent: true\nP2P replay has the same transactionRecordId: true\nP2P status: completed\nP2P type: p2p\ntransactions listed: [1-5]\n/,
      'replayed with the same id, settled, listed',
    );
    assert.match(stdout, /\nrefused with: 400\namount: must have at most 7 decimal places\n/);
    assert.match(stdout, /\nwebhook delivery verified: payment\.\w+\n/);
    assert.match(stdout, /\n== Done\n$/);
    // A story, not bare values: every line is a step, or a label and its value.
    for (const line of stdout.split('\n').filter(Boolean)) {
      assert.match(line, /^(== .+|[A-Za-z][^:]*: .+)$/, `unlabelled line: ${line}`);
    }
  });
  // What another project gets: `npm pack`'s tarball installed (files of its own, no link back here), and
  // TypeScript with its default settings (module commonjs, moduleResolution node10: the package's top-level
  // `types`), the compiled CommonJS requiring the ES module package (Node 20.19+).
  it('installs from its packed tarball, self-contained, and compiles with tsc’s default settings', {
    timeout: 0,
  }, async () => {
    const consumer = join(scratch, 'consumer');
    mkdirSync(consumer);
    const { stdout: packed } = await exec(
      'npm',
      ['pack', '--pack-destination', consumer, '--loglevel=warn'],
      {
        cwd: join(root, 'clients', 'typescript'),
      },
    );
    writeFileSync(
      join(consumer, 'package.json'),
      '{"name": "consumer", "version": "1.0.0", "private": true}\n',
    );
    // From the npm cache the repository's own install filled (openapi-fetch): no registry needed.
    await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `./${packed.trim()}`], {
      cwd: consumer,
    });
    assert.ok(
      !lstatSync(join(consumer, 'node_modules', '@payments-gateway', 'client')).isSymbolicLink(),
      'installed, not linked',
    );
    const tenant = JSON.parse(process.env.TEST_SEEDED_TENANT ?? '{}') as Record<string, string>;
    const options = {
      baseUrl: baseUrl(),
      apiKey: tenant.apiKey,
      clientId: tenant.clientId,
      clientSecret: tenant.clientSecret,
    };
    const program = (path: string) =>
      [
        "import { createGateway } from '@payments-gateway/client';",
        `const { api, ok } = createGateway(${JSON.stringify(options)});`,
        `api.GET('${path}', { params: { query: { limit: 50 } } }).then((answer) => console.log('assets', ok(answer).data.length));`,
        '',
      ].join('\n');
    writeFileSync(join(consumer, 'index.ts'), program('/assets'));
    // No tsconfig, no options: tsc's defaults.
    await exec(bin('tsc'), ['index.ts'], { cwd: consumer }).catch((error: { stdout: string }) =>
      assert.fail(`default tsc refused the client:\n${error.stdout}`),
    );
    const { stdout } = await exec(process.execPath, ['index.js'], { cwd: consumer });
    assert.match(stdout, /^assets [1-9]\d*\n$/);
    // The types are the document's, not `any`: a path the API does not have does not compile.
    writeFileSync(join(consumer, 'index.ts'), program('/no-such-route'));
    const refused = await exec(bin('tsc'), ['index.ts'], { cwd: consumer }).then(
      () => assert.fail('an unknown path compiled'),
      (error: { stdout: string }) => error.stdout,
    );
    assert.match(refused, /no-such-route/);
  });
});
