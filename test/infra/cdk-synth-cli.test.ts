// `npx cdk synth` the way a new user runs it: the CDK CLI on the machine's Node 20, which must hand the
// app (TypeScript, run natively by Node 24 only) to the toolchain. Skipped without a Node 20 on PATH.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, it } from 'vitest';
import { declaredStages, stageTargetOf } from '../../lib/stage-targets.ts';

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

// Skipped only where no Node 20 is on PATH to run the CDK CLI with.
describe.skipIf(!node20)('npx cdk synth on Node 20', () => {
  // One synth (the default stage, as the README's first `npx cdk synth` does): the app itself, dev and
  // prod alike, is covered in process by stack.test.ts; this is about the CLI reaching it.
  // Typically 15-25 s (bundling, synth, cdk-nag); the bound is generous for a machine busy with other work.
  it('synthesizes the dev stack into the output folder', { timeout: 180_000 }, async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'cdk-synth-'));
    try {
      await run('npx', ['cdk', 'synth', '-q', '-o', outDir], {
        cwd: root,
        env: newUserEnv(node20 as string),
        timeout: 170_000,
      });
      const template = JSON.parse(readFileSync(join(outDir, 'payments-gateway-dev.template.json'), 'utf8'));
      assert.equal(template.Description, 'payments-gateway (dev)');
      assert.ok(Object.keys(template.Resources).length > 0);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });

  // The production synth of the README's walkthrough: its custom domain, and the account and region
  // cdk.json pins (what `cdk deploy` checks the credentials against).
  it('synthesizes prod with a custom domain, pinned to its account and region', {
    timeout: 180_000,
  }, async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'cdk-synth-'));
    const { account, region } = stageTargetOf(declaredStages(), 'prod');
    try {
      const certificateArn =
        'arn:aws:acm:us-east-1:222222222222:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789';
      await run(
        'npx',
        [
          'cdk',
          'synth',
          '-q',
          '-o',
          outDir,
          '-c',
          'stage=prod',
          '-c',
          'domainName=api.example.com',
          '-c',
          `certificateArn=${certificateArn}`,
          '-c',
          `regionalCertificateArn=${certificateArn.replace('us-east-1', region)}`,
          '-c',
          `originClientCertificateArn=${certificateArn.replace('0a1b2c3d', '5c4d3e2f')}`,
          '-c',
          'originTruststoreUri=s3://payments-example-truststore/origin/ca.pem',
          '-c',
          'alarmEmail=oncall@example.com',
        ],
        { cwd: root, env: newUserEnv(node20 as string), timeout: 170_000 },
      );
      const manifest = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8'));
      assert.equal(manifest.artifacts['payments-gateway-prod'].environment, `aws://${account}/${region}`);
      assert.equal(
        manifest.artifacts['payments-gateway-prod-edge'].environment,
        `aws://${account}/us-east-1`,
      );
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
  it('refuses prod without a custom domain or an alarm subscriber, in one line', {
    timeout: 180_000,
  }, async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'cdk-synth-'));
    try {
      const failed = await run(
        'npx',
        ['cdk', 'synth', '-q', '-o', outDir, '-c', 'stage=prod', '-c', 'alarmEmail=oncall@example.com'],
        {
          cwd: root,
          env: newUserEnv(node20 as string),
          timeout: 170_000,
        },
      ).then(
        () => assert.fail('prod synthesized without a domain'),
        (error: { code: number; stderr: string }) => error,
      );
      assert.notEqual(failed.code, 0);
      const reason = failed.stderr.split('\n').find((line) => line.startsWith('Stage prod needs'));
      assert.match(reason ?? failed.stderr, /^Stage prod needs a custom domain: pass -c domainName=/);
      assert.doesNotMatch(failed.stderr, /^\s+at /m, 'no stack trace');
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
