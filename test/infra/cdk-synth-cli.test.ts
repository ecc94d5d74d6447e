// `npx cdk synth` the way a new user runs it: the CDK CLI on the machine's Node 20, which must hand the
// app (TypeScript, run natively by Node 24 only) to the toolchain. Skipped without a Node 20 on PATH (but
// not under CI: test/support/tools.ts).
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, it } from 'vitest';
import { declaredStages, stageTargetOf } from '../../lib/stage-targets.ts';
import { docCommand, quotedMessages } from '../support/docs.ts';
import { assertTool, skipWithout } from '../support/tools.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** The first `node` on PATH that is Node 20 (the toolchain put Node 24 first; look past it). */
function findNode20(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const node = join(dir, 'node');
    if (!dir || !existsSync(node)) continue;
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
    if (version.startsWith('v20.')) return node;
  }
  return undefined;
}

/**
 * A new user's shell: Node 20 first on PATH, and none of what `npm test` and `node --test` export
 * (npm's variables point at Node 24; NODE_TEST_CONTEXT would make child processes act as test files).
 */
function newUserEnv(node20: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('npm_') && name !== 'NODE' && name !== 'NODE_TEST_CONTEXT') env[name] = value;
  }
  env.PATH = [dirname(node20), process.env.PATH].join(delimiter);
  env.CDK_DISABLE_VERSION_CHECK = '1'; // no registry call from a test
  return env;
}

const node20 = findNode20();
/** Past this a synth is hung, not slow (busy, one takes minutes). */
const HANG = 15 * 60_000;

// Skipped only where no Node 20 is on PATH to run the CDK CLI with, and never under CI.
describe.skipIf(skipWithout(node20 !== undefined))('npx cdk synth on Node 20', () => {
  beforeAll(() => assertTool('Node 20 (on PATH)', node20 !== undefined));
  // One synth (the default stage, as the README's first `npx cdk synth` does): the app itself, dev and
  // prod alike, is covered in process by stack.test.ts; this is about the CLI reaching it.
  // Typically 15-25 s (bundling, synth, cdk-nag), 170 s and more on a busy machine: CPU-bound work has no test
  // clock (timeout 0); HANG only stops a CLI that hangs.
  it('synthesizes the dev stack into the output folder', { timeout: 0 }, async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'cdk-synth-'));
    try {
      await run('npx', ['cdk', 'synth', '-q', '-o', outDir], {
        cwd: root,
        env: newUserEnv(node20 as string),
        timeout: HANG,
      });
      const template = JSON.parse(readFileSync(join(outDir, 'payments-gateway-dev.template.json'), 'utf8'));
      assert.equal(template.Description, 'payments-gateway (dev)');
      assert.ok(Object.keys(template.Resources).length > 0);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });

  // The production synth as docs/production.md shows it, run as written (its words read from the doc): its
  // custom domain, and the account and region cdk.json pins (what `cdk deploy` checks the credentials against).
  it('synthesizes prod as docs/production.md shows, pinned to its account and region', {
    timeout: 0,
  }, async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'cdk-synth-'));
    const { account, region } = stageTargetOf(declaredStages(), 'prod');
    try {
      const [command = '', ...args] = docCommand('docs/production.md', 'npx cdk synth');
      await run(command, [...args, '-o', outDir], {
        cwd: root,
        env: newUserEnv(node20 as string),
        timeout: HANG,
      });
      const manifest = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8'));
      assert.equal(manifest.artifacts['payments-gateway-prod'].environment, `aws://${account}/${region}`);
      assert.equal(
        manifest.artifacts['payments-gateway-prod-edge'].environment,
        `aws://${account}/us-east-1`,
      );
      // The main stack's routes and alarms: beside it, deployed after it; every stack well under 500.
      for (const name of ['payments-gateway-prod-api', 'payments-gateway-prod-observability']) {
        assert.equal(manifest.artifacts[name].environment, `aws://${account}/${region}`, name);
        assert.ok(manifest.artifacts[name].dependencies.includes('payments-gateway-prod'), name);
      }
      for (const [name, artifact] of Object.entries(manifest.artifacts as Record<string, { type: string }>)) {
        if (artifact.type !== 'aws:cloudformation:stack') continue;
        const stack = JSON.parse(readFileSync(join(outDir, `${name}.template.json`), 'utf8'));
        assert.ok(Object.keys(stack.Resources).length < 400, name);
      }
      const template = JSON.parse(readFileSync(join(outDir, 'payments-gateway-prod.template.json'), 'utf8'));
      assert.equal(template.Description, 'payments-gateway (prod)');
      assert.match(JSON.stringify(template.Outputs.ApiUrl.Value), /https:\/\/api\.example\.com\/v1/);
      const subscriptions = Object.values(template.Resources as Record<string, { Type: string }>).filter(
        (r) => r.Type === 'AWS::SNS::Subscription',
      );
      assert.equal(subscriptions.length, 1);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });

  // Production without its domain or anyone to page: the app stops with one line saying what to pass.
  it('refuses prod without an alarm subscriber, in the one line docs/production.md quotes', {
    timeout: 0,
  }, async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'cdk-synth-'));
    try {
      const failed = await run('npx', ['cdk', 'synth', '-q', '-o', outDir, '-c', 'stage=prod'], {
        cwd: root,
        env: newUserEnv(node20 as string),
        timeout: HANG,
      }).then(
        () => assert.fail('prod synthesized without a domain'),
        (error: { code: number; stderr: string }) => error,
      );
      assert.notEqual(failed.code, 0);
      const reason = failed.stderr.split('\n').find((line) => line.startsWith('Stage prod needs'));
      // The first refusal docs/production.md quotes for `npx cdk synth -c stage=prod` alone.
      const [first] = quotedMessages('docs/production.md', 'Stage prod needs').filter(
        (m) => !m.endsWith('…'),
      );
      assert.equal(reason ?? failed.stderr, first);
      assert.doesNotMatch(failed.stderr, /^\s+at /m, 'no stack trace');
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
