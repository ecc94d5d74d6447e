// `npm start`: brings the local stack up, writes .local/credentials.json, prints what it serves (one line
// per request, settled payment, webhook delivery, payment notice and worker failure; `npm start -- --quiet` does not), and
// stops everything on SIGINT/SIGTERM. A start that fails, or is interrupted, stops what it had started and
// exits non-zero: it never leaves a child behind.
// LOCAL_DATA_DIR puts its data elsewhere than .local/ (a second stack from one clone; the tests' own `npm start`).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePortFree } from './ports.ts';
import { createTrafficLog, useColour } from './traffic-log.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = process.env.LOCAL_DATA_DIR ?? join(root, '.local');
const quiet = process.argv.slice(2).includes('--quiet');
const started = Date.now();
// A signal while starting aborts the start, which then stops what it had started (once up, shutdown below).
const starting = new AbortController();
let stopping: ((signal: NodeJS.Signals) => void) | undefined;
const onSignal = (signal: NodeJS.Signals) =>
  stopping ? stopping(signal) : starting.abort(new Error(`interrupted by ${signal}`));
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
const port = Number(process.env.PORT ?? 3000);
// The gateway's port before anything else, even before loading the stack's modules (seconds on a busy
// machine): taken, the start fails at once, naming what holds it, with nothing started.
const cannotStart = (error: Error): never => {
  console.error(`Could not start the local stack: ${error.message}`);
  process.exit(1);
};
if (port !== 0) await ensurePortFree(port, '127.0.0.1').catch(cannotStart);
const { startStack } = await import('./stack.ts');
const { SANDBOX_OWNER_EMAIL } = await import('./seed.ts');
console.log('Starting the local stack (DynamoDB Local, SQS, secrets, seed data, the ledgers, the gateway)…');

const stack = await startStack({
  port,
  dataDir,
  dynamoDbDir: join(root, '.local', 'dynamodb'),
  signal: starting.signal,
  // On disk, not in memory: a stack left running all day keeps what it writes in a file, not in the JVM
  // (docs/local-stack.md: DynamoDB Local's growth). Emptied at every start, as the in-memory table was.
  dynamoDbData: join(dataDir, 'dynamodb-data'),
  ...(!quiet && {
    traffic: createTrafficLog((line) => process.stdout.write(`${line}\n`), {
      colour: useColour(process.stdout),
    }),
  }),
}).catch(cannotStart);

const credentials = {
  baseUrl: stack.baseUrl,
  apiKey: stack.seededTenant.apiKey,
  clientId: stack.seededTenant.clientId,
  clientSecret: stack.seededTenant.clientSecret,
  associationId: stack.seededTenant.associationId,
  // What `npm run admin -- credentials list --application <id>` and `apikey add` take.
  applicationId: stack.seededTenant.applicationId,
  environment: stack.seededTenant.environment,
  horizonUrl: stack.horizonUrl,
  friendbotUrl: stack.friendbotUrl,
  // The business portal, and its sandbox owner's address: sign in there, the code arrives at sesUrl.
  portalUrl: stack.baseUrl.replace(/\/v1$/, '/portal/'),
  portalOwnerEmail: SANDBOX_OWNER_EMAIL,
  // Where the beneficiary notices go: the SES emulator (its page, GET /store) and the WhatsApp simulator.
  sesUrl: stack.sesUrl,
  whatsAppUrl: stack.whatsAppUrl,
};
writeFileSync(join(dataDir, 'credentials.json'), `${JSON.stringify(credentials, null, 2)}\n`, {
  mode: 0o600,
});
// The admin CLI reads this to reach the same services.
writeFileSync(join(dataDir, 'stack.env.json'), `${JSON.stringify(stack.env, null, 2)}\n`);

console.log(
  `Local stack up in ${((Date.now() - started) / 1000).toFixed(1)} s: ${stack.baseUrl} (health: ${stack.baseUrl.replace(/\/v1$/, '')}/healthz)`,
);
console.log(
  `Business portal: ${credentials.portalUrl} (sign in as ${SANDBOX_OWNER_EMAIL}; the one-time code arrives at ${stack.sesUrl})`,
);
console.log('Sandbox tenant (also in .local/credentials.json):');
console.log(JSON.stringify(credentials, null, 2));
console.log(
  quiet
    ? 'Ctrl-C stops it.'
    : "Ctrl-C stops it. Its traffic follows, one line per request, settled payment, webhook delivery, payment notice and worker failure (npm start -- --quiet hides it; LOG_LEVEL=INFO adds the functions' JSON logs):",
);

let stopped = false;
stopping = async (signal) => {
  if (stopped) return;
  stopped = true;
  console.log(`\n${signal}: stopping the local stack…`);
  await stack.stop();
  console.log('Stopped.');
  process.exit(0);
};
// A signal that came while the last step was finishing.
if (starting.signal.aborted) stopping('SIGTERM');
