// Global test setup: one real local stack (DynamoDB Local, fauxqs, the Secrets Manager stand-in and the
// gateway) for the whole run. Test files run in child processes that inherit the environment set here.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LocalStack, startStack } from '../lib/local/stack.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
let stack: LocalStack | undefined;

export async function globalSetup(): Promise<void> {
  // Tests provoke warnings on purpose (a ledger that is down, a refused payment): keep them out of the
  // report. Errors (a 500 is logged with its requestId) still print; `LOG_LEVEL=DEBUG npm test` shows all.
  process.env.LOG_LEVEL ??= 'ERROR';
  const dataDir = join(root, '.local', 'test-stack');
  stack = await startStack({
    port: 0,
    dataDir,
    dynamoDbDir: join(root, '.local', 'dynamodb'),
    stage: 'test',
  });
  process.env.TEST_BASE_URL = stack.baseUrl;
  process.env.TEST_HORIZON_URL = stack.horizonUrl;
  process.env.TEST_DATA_DIR = dataDir;
  process.env.TEST_SEEDED_TENANT = JSON.stringify(stack.seededTenant);
}

export async function globalTeardown(): Promise<void> {
  await stack?.stop();
}
