// Global test setup: one real local stack (DynamoDB Local, fauxqs, the Secrets Manager stand-in, the
// local ledgers and the gateway) for the whole run. The environment it sets (endpoints, table and secret
// names, the base URL) is handed to every test file through vitest's provide/inject.

import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { type LocalStack, startStack } from '../local/stack.ts';
import { createTrafficLog } from '../local/traffic-log.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
let stack: LocalStack | undefined;
let tmpRoot: string | undefined;

declare module 'vitest' {
  export interface ProvidedContext {
    stackEnv: Record<string, string>;
    /** Test files log at WARN (or the caller's LOG_LEVEL): they capture what they provoke. */
    testLogLevel: string;
  }
}

export async function setup(project: TestProject): Promise<void> {
  const before = { ...process.env };
  // Every temporary file of the run (CDK's cdk.out*, bundles, the walkthrough's credentials, the CLI's
  // files) goes under one folder, removed at teardown: TMPDIR is what os.tmpdir() and the tools it runs
  // read, in the test files' processes (stackEnv) and in every process they start.
  tmpRoot = mkdtempSync(join(tmpdir(), 'payments-gateway-test-'));
  process.env.TMPDIR = tmpRoot;
  process.env.TEST_TMP_ROOT = tmpRoot;
  // The Node processes the tests start (the admin CLI, scripts, a process per test file) compile the
  // same modules again and again: V8's code cache, under the run's folder, compiles each once a run.
  process.env.NODE_COMPILE_CACHE ??= join(tmpRoot, 'node-compile-cache');
  // Tests provoke warnings on purpose (a ledger that is down, a refused payment): keep them out of the
  // report. Errors (a 500 is logged with its requestId) still print; `LOG_LEVEL=DEBUG npm test` shows all.
  process.env.LOG_LEVEL ??= 'ERROR';
  // Webhook retries 500 times sooner (5 s → 10 ms, 20 h → 144 s): a receiver that fails a few times
  // receives its event within seconds (lib/webhooks/schedule.ts).
  process.env.WEBHOOK_RETRY_SCALE ??= '0.002';
  // Notice retries likewise (5 s … 10 min → at once): a channel that is down fails its notice within seconds.
  process.env.NOTIFY_RETRY_SCALE ??= '0';
  // A sandbox tenant's daily notice cap (lib/notifications/daily-cap.ts), low enough to reach in a test.
  process.env.NOTICE_DAILY_LIMIT_SANDBOX ??= '12';
  // The sandbox money helpers' daily caps (lib/wallets/sandbox-limits.ts), likewise.
  process.env.SANDBOX_FUND_DAILY_LIMIT ??= '20000';
  process.env.SANDBOX_RECEIPT_DAILY_LIMIT ??= '3000';
  // A wallet activation the platform could not pay is asked for again at once (60 s in AWS).
  process.env.ACTIVATION_RETRY_DELAY_SECONDS ??= '0';
  // Default request limits 100 times higher: the fuzz and hardening tests send hundreds of requests a
  // second as one tenant on purpose. The limits' own test sets its tenant's limits (never scaled).
  process.env.RATE_LIMIT_SCALE ??= '100';
  // Credentials and reference data read afresh at every request (60 s in AWS, lib/db/held-reads.ts): tests
  // revoke a key and expect 401 at once; test/integration/held-reads.test.ts holds the bound itself.
  process.env.REFERENCE_MAX_AGE_SECONDS ??= '0';
  const dataDir = join(root, '.local', 'test-stack');
  rmSync(join(dataDir, 'traffic.log'), { force: true });
  stack = await startStack({
    port: 0,
    dataDir,
    dynamoDbDir: join(root, '.local', 'dynamodb'),
    stage: 'test',
    // What `npm start` prints, into a file: kept out of the report, read by test/integration/traffic-log.test.ts.
    traffic: createTrafficLog((line) => appendFileSync(join(dataDir, 'traffic.log'), `${line}\n`), {
      colour: false,
    }),
  });
  process.env.TEST_BASE_URL = stack.baseUrl;
  process.env.TEST_HORIZON_URL = stack.horizonUrl;
  process.env.TEST_SES_URL = stack.sesUrl;
  process.env.TEST_WHATSAPP_URL = stack.whatsAppUrl;
  process.env.TEST_DATA_DIR = dataDir;
  process.env.TEST_SEEDED_TENANT = JSON.stringify(stack.seededTenant);
  const stackEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    // LOG_LEVEL stays the stack's own: a test file that provokes warnings in its own process captures
    // them (test/support/logs.ts), and one that asserts on them must see them.
    if (value !== undefined && before[name] !== value && name !== 'LOG_LEVEL') stackEnv[name] = value;
  }
  project.provide('stackEnv', stackEnv);
  project.provide('testLogLevel', before.LOG_LEVEL ?? 'WARN');
}

export async function teardown(): Promise<void> {
  await stack?.stop();
  if (tmpRoot) rmSync(tmpRoot, { recursive: true, force: true });
}
