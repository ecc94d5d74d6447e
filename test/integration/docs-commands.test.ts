// Every command the docs give in a fenced sh block runs as written in some test, or needs what no test
// has (an AWS account). Each block is accounted for below, so a new one cannot go untried by accident;
// docs/walkthrough.md's are run here, in order, in one shell, against the test stack, as a reader pastes
// them (their lines are also examples/walkthrough.sh's: walkthrough.test.ts).
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, it } from 'vitest';
import { baseUrl } from '../support/api.ts';
import { shBlocks } from '../support/docs.ts';
import { assertTool, skipWithout } from '../support/tools.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const hasCurl = spawnSync('curl', ['--version'], { stdio: 'ignore' }).status === 0;

/** Where each block that is not run here runs, or why none can: by the doc and its first line's start. */
const notHere: { file: string; start: string; because: string }[] = [
  { file: 'README.md', start: 'npm start', because: 'npm start: local-start.test.ts; npm test is this run' },
  { file: 'docs/api.md', start: 'OPENAPI_SERVER_URL=', because: 'an S3 bucket and a distribution in AWS' },
  { file: 'docs/production.md', start: 'openssl req', because: 'ACM and S3 in an AWS account' },
  { file: 'docs/production.md', start: 'npm run deploy', because: 'a deploy to an AWS account' },
  { file: 'docs/production.md', start: 'npx cdk synth', because: 'run as written by cdk-synth-cli.test.ts' },
  {
    file: 'docs/production.md',
    start: 'npm run -s admin -- tenant create --name "Acme"',
    because: 'a deployed stage',
  },
  { file: 'docs/production.md', start: 'npm run admin -- ledger status', because: 'a deployed stage' },
  {
    file: 'docs/production.md',
    start: 'npm run -s admin -- tenant create --name "Sandbox Co"',
    because: 'a deployed stage',
  },
  {
    file: 'docs/walkthrough.md',
    start: 'npm run webhooks:listen',
    because: 'run by webhooks-listen.test.ts',
  },
];

const docs = ['README.md', ...readdirSync(join(root, 'docs')).map((name) => `docs/${name}`)].filter((file) =>
  file.endsWith('.md'),
);
const isRunElsewhere = (file: string, block: string[]) =>
  notHere.some((entry) => entry.file === file && block[0]?.startsWith(entry.start));

describe('the docs’ sh blocks', () => {
  it('are each run here or elsewhere, or need an AWS account (said here)', () => {
    for (const file of docs) {
      for (const block of shBlocks(file)) {
        if (file === 'docs/walkthrough.md' || isRunElsewhere(file, block)) continue;
        assert.fail(`${file}: a command no test runs, and nothing says why: ${block[0]}`);
      }
    }
  });

  it.skipIf(skipWithout(hasCurl))(
    'docs/walkthrough.md: every block, pasted in order, runs against the stack',
    {
      timeout: 0,
    },
    async () => {
      assertTool('curl', hasCurl);
      const file = 'docs/walkthrough.md';
      const blocks = shBlocks(file).filter((block) => !isRunElsewhere(file, block));
      // A reader's clone: .local/credentials.json as npm start writes it (the test stack's), examples/json.mjs.
      const clone = mkdtempSync(join(tmpdir(), 'docs-commands-'));
      mkdirSync(join(clone, '.local'));
      mkdirSync(join(clone, 'examples'));
      copyFileSync(join(root, 'examples', 'json.mjs'), join(clone, 'examples', 'json.mjs'));
      writeFileSync(
        join(clone, '.local', 'credentials.json'),
        JSON.stringify({
          ...JSON.parse(process.env.TEST_SEEDED_TENANT ?? '{}'),
          baseUrl: baseUrl(),
          horizonUrl: process.env.TEST_HORIZON_URL,
          sesUrl: process.env.TEST_SES_URL,
          whatsAppUrl: process.env.TEST_WHATSAPP_URL,
        }),
      );
      const script = ['set -euo pipefail', ...blocks.map((block) => block.join('\n'))].join('\n');
      const { BASE_URL: _base, HORIZON_URL: _horizon, ...env } = process.env;
      const { stdout } = await run('bash', ['-c', script], {
        cwd: clone,
        env,
        maxBuffer: 16 * 1024 * 1024,
      }).catch((error: { stdout: string; stderr: string }) =>
        assert.fail(`a docs/walkthrough.md block failed:\n${error.stderr}\n--- stdout ---\n${error.stdout}`),
      );
      for (const line of [
        'third-party wallet status: Verified',
        'P2P replay isIdempotent: true',
        'P2P status: completed',
        'off-ramp status: completed',
        'held off-ramp status: refund_completed',
        'customer status, decided: VERIFIED',
        'receipt record status: completed',
      ])
        assert.ok(stdout.includes(`\n${line}\n`), `no "${line}" in:\n${stdout}`);
    },
  );
});
