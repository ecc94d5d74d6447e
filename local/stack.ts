// The local stack: DynamoDB Local, fauxqs, a Secrets Manager stand-in, the SES emulator, the WhatsApp
// simulator, the ledgers, the provider simulator, the gateway, one SQS poller per worker, the table
// stream's poller (the outbox router) and the outbox reconciler's schedule, wired through the AWS SDK's
// standard endpoint variables. `npm start` and the test setup both start it from here.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SecretsManagerRotationEvent } from 'aws-lambda';
import type { NewTenant } from '../lib/admin/tenants.ts';
import { resetConfig } from '../lib/config.ts';
import { createTableInput } from '../lib/db/table.ts';
import { outboxItemTypes, outboxStream } from '../lib/outbox.ts';
import { queueUrlVariable } from '../lib/queue-names.ts';
import { queues } from '../lib/queues.ts';
import { secretNames } from '../lib/secret-names.ts';
import { startDynamoDbLocal } from './dynamodb-local.ts';
import { ensureQueues, startSqs } from './fauxqs.ts';
import type { FunctionHost } from './function-host.ts';
import { functionOutputPath, keepFunctionOutput, keptLevelOf } from './function-output.ts';
import { invokeIsolated } from './invocation.ts';
import { lambdaContext } from './lambda-event.ts';
import type { InvokedHandler } from './lambda-service.ts';
import { closeServer, freePort } from './ports.ts';
import { type ScheduledHandler, startSchedule } from './schedule.ts';
import { startLocalSecretsManager } from './secrets-manager.ts';
import { ensureLocalSecrets, keySecretsOf, putLocalSecret } from './secrets-seed.ts';
import { startLocalSes } from './ses.ts';
import { type Poller, type SqsBatchHandler, startPoller } from './sqs-poller.ts';
import { type StreamBatchHandler, startStreamPoller } from './stream-poller.ts';
import { logSettlements, type TrafficLog } from './traffic-log.ts';
import { startWhatsAppSimulator } from './whatsapp-simulator.ts';

export interface StackOptions {
  /** Gateway port; 0 picks a free one. */
  port: number;
  /** Where secrets, the pid file and credentials live (`.local/` for npm start). */
  dataDir: string;
  /** Where DynamoDB Local is installed. */
  dynamoDbDir: string;
  /** A folder for DynamoDB Local's database file (-dbPath, emptied at the start); absent, it runs in memory. */
  dynamoDbData?: string;
  stage?: string;
  /** Runs functions elsewhere than in this process (see function-host.ts); absent, every one runs here. */
  functionHost?: FunctionHost;
  /** Told of each request, settled payment, ended webhook delivery and worker failure (traffic-log.ts). */
  traffic?: TrafficLog;
  /** Aborted (a SIGTERM while starting): the start stops what it started so far and fails. */
  signal?: AbortSignal;
}

export interface LocalStack {
  baseUrl: string;
  /** The sandbox ledger's Horizon-compatible API, for looking at accounts directly. */
  horizonUrl: string;
  /** The sandbox ledger's friendbot (GET ?addr=G… opens an account with 10000 XLM). */
  friendbotUrl: string;
  /** The provider simulator's base (its POST /faults injects provider faults). */
  providerUrl: string;
  /** The SES emulator's base: GET /store lists the email it received, / shows it in a browser. */
  sesUrl: string;
  /** The WhatsApp simulator's base: GET /messages lists what it received, POST /faults fails a recipient. */
  whatsAppUrl: string;
  /** Environment the functions run with; tests and the admin CLI reuse it to reach the same services. */
  env: Record<string, string>;
  seededTenant: NewTenant;
  /** DynamoDB Local's process (the bench reads its memory). */
  dynamoDbPid: number;
  /** Where the stack keeps its data, the functions' output among it (local/function-output.ts). */
  dataDir: string;
  stop(): Promise<void>;
}

const PID_FILE = 'stack.pid.json';

/** The gateway listens on loopback only. */
const GATEWAY_HOST = '127.0.0.1';

/** The ledger admin function's name on the local stack (a deployed stage's is its stack output). */
const LEDGER_ADMIN_FUNCTION = 'ledger-admin';

type RotationHandler = (event: SecretsManagerRotationEvent, context: Context) => Promise<unknown>;

/**
 * LOCAL_LEDGER_CLOSE_MS: the local ledgers' close cadence. Unset or 0, each accepted transaction closes a
 * ledger at once (fast tests); 5000 is the network's pace, the realistic setting for benches.
 */
function ledgerCloseIntervalMs(): number {
  const text = process.env.LOCAL_LEDGER_CLOSE_MS ?? '0';
  const ms = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(ms))
    throw new Error(
      `LOCAL_LEDGER_CLOSE_MS must be whole milliseconds (0 = close at once), not ${JSON.stringify(text)}`,
    );
  return ms;
}

/**
 * LOCAL_RECONCILER_INTERVAL_MS: how often the local stack runs the outbox reconciler (in AWS, every 5
 * minutes). Short, so a stuck record is seen soon; what counts as stuck is RECONCILE_AFTER_SECONDS.
 */
function reconcilerIntervalMs(): number {
  const ms = Number(process.env.LOCAL_RECONCILER_INTERVAL_MS ?? '10000');
  if (!Number.isSafeInteger(ms) || ms <= 0)
    throw new Error('LOCAL_RECONCILER_INTERVAL_MS must be whole milliseconds above 0');
  return ms;
}

/** LOCAL_PROVIDER_COMPLETE_MS: how long the provider simulator takes to complete an instruction left alone. */
function providerCompleteAfterMs(): number {
  const ms = Number(process.env.LOCAL_PROVIDER_COMPLETE_MS ?? '3000');
  if (!Number.isSafeInteger(ms) || ms < 0)
    throw new Error('LOCAL_PROVIDER_COMPLETE_MS must be whole milliseconds');
  return ms;
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * A stack that crashed leaves its children behind: stop them before taking their places. A stack
 * whose owner is still running is not a leftover: refuse to start beside it rather than kill it.
 */
function stopLeftovers(dataDir: string): void {
  const file = join(dataDir, PID_FILE);
  if (!existsSync(file)) return;
  const { pids } = JSON.parse(readFileSync(file, 'utf8')) as { pids: number[] };
  const [owner, ...children] = pids;
  if (owner !== undefined && owner !== process.pid && isAlive(owner)) {
    throw new Error(`A local stack (pid ${owner}) is already running from ${dataDir}; stop it first.`);
  }
  for (const pid of children) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/**
 * Creates the gateway's table in DynamoDB Local. Already there is fine: a table kept in a data directory
 * from before an index existed gets it (the list indexes' keys-only ones, lib/db/table.ts).
 */
export async function createTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint });
  const input = createTableInput(tableName);
  try {
    await client.send(new CreateTableCommand(input));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
    for (const index of input.GlobalSecondaryIndexes.filter((g) => !present.has(g.IndexName)))
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: input.AttributeDefinitions,
          GlobalSecondaryIndexUpdates: [{ Create: index }],
        }),
      );
  } finally {
    client.destroy();
  }
}

/**
 * Points this process at a new table of its own in the DynamoDB Local its environment names: for tests
 * and bench runs whose subject is shared platform data (the channel pool) that the stack's own functions
 * would use at the same time. Call before the process's first table access.
 */
export async function useOwnTable(purpose: string): Promise<string> {
  const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB;
  if (!endpoint) throw new Error('AWS_ENDPOINT_URL_DYNAMODB is not set: start the local stack first');
  const tableName = `${purpose}-${randomUUID()}`;
  await createTable(endpoint, tableName);
  process.env.TABLE_NAME = tableName;
  resetConfig();
  return tableName;
}

/** The table's stream (DynamoDB Local serves the Streams API on the table's own endpoint). */
export async function tableStreamArn(endpoint: string, tableName: string): Promise<string> {
  const client = new DynamoDBClient({ endpoint });
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (!Table?.LatestStreamArn) throw new Error(`Table ${tableName} has no stream`);
    return Table.LatestStreamArn;
  } finally {
    client.destroy();
  }
}

/** Registers a piece once it is up, so that a start failing after it stops it again; throws if the start was aborted. */
type Up = <T>(piece: T, stop: (piece: T) => Promise<unknown>) => T;

export async function startStack(options: StackOptions): Promise<LocalStack> {
  mkdirSync(options.dataDir, { recursive: true });
  stopLeftovers(options.dataDir);
  // What is up so far, stopped again (last first) when a later step fails or the start is aborted: a
  // failed start leaves no DynamoDB Local (a JVM of ~230 MB) and no listener behind it.
  const started: (() => Promise<unknown>)[] = [];
  const up: Up = (piece, stop) => {
    started.push(() => stop(piece));
    options.signal?.throwIfAborted();
    return piece;
  };
  try {
    options.signal?.throwIfAborted();
    return await startPieces(options, up);
  } catch (error) {
    for (const stop of started.reverse()) await stop().catch(() => undefined);
    throw error;
  }
}

async function startPieces(options: StackOptions, up: Up): Promise<LocalStack> {
  const stage = options.stage ?? 'local';
  const secretsDir = join(options.dataDir, 'secrets');
  mkdirSync(secretsDir, { recursive: true, mode: 0o700 });

  // The functions log at INFO into the data folder's output file, printing at the level asked for.
  const printLevel = process.env.LOG_LEVEL ?? 'WARN';
  const output = up(keepFunctionOutput(functionOutputPath(options.dataDir), printLevel), (o) => o.stop());
  if (options.dynamoDbData !== undefined) {
    // A fresh table every start, as in memory: the file only moves what it holds out of the JVM.
    rmSync(options.dynamoDbData, { recursive: true, force: true });
    mkdirSync(options.dynamoDbData, { recursive: true });
  }
  const dynamo = up(await startDynamoDbLocal(options.dynamoDbDir, { dbPath: options.dynamoDbData }), (d) =>
    d.stop(),
  );
  writeFileSync(join(options.dataDir, PID_FILE), JSON.stringify({ pids: [process.pid, dynamo.pid] }));
  const sqs = up(await startSqs({ port: 0 }), (q) => q.stop());
  // Beneficiary notices' email (lib/notifications/email.ts) lands in the SES emulator.
  const ses = up(await startLocalSes(), (e) => e.stop());
  // The key secrets exist empty until their rotation writes them, as infra creates them in AWS; the
  // rotation function runs in this process, as Secrets Manager would invoke it.
  const keySecrets = keySecretsOf(stage);
  const names = secretNames(stage);
  const secrets = up(
    await startLocalSecretsManager(secretsDir, 0, {
      declared: [...keySecrets.declared, names.whatsAppToken],
      rotation: {
        secrets: keySecrets.rotated,
        invoke: async (event) => {
          const handler =
            (options.functionHost?.('rotation/keys', env) as RotationHandler | undefined) ??
            (await import('../functions/rotation/keys.ts')).handler;
          await invokeIsolated(handler, event, lambdaContext('rotation/keys'));
        },
      },
    }),
    (m) => m.stop(),
  );
  // The WhatsApp simulator takes the token the stack puts in the token secret (below), fresh each start.
  const whatsApp = { phoneNumberId: '100200300400', accessToken: randomUUID() };
  const whatsAppSimulator = up(await startWhatsAppSimulator(whatsApp), (w) => w.stop());
  // The ledgers start after seeding (their genesis holds the platform accounts), but the functions
  // read their Horizon URLs once, at first use: so the ports are chosen now.
  const ledgerPorts = { sandbox: await freePort(), production: await freePort() };
  // The provider simulator likewise (PROVIDER_URL_<ENV>); it learns the gateway's address once it listens.
  const providerPort = await freePort();
  const env: Record<string, string> = {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    AWS_ENDPOINT_URL_SQS: sqs.endpoint,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
    AWS_ENDPOINT_URL_SESV2: ses.endpoint,
    // Every function's invocations share this process's one DynamoDB client (lib/db/client.ts).
    DYNAMODB_MAX_SOCKETS: '512',
    NOTIFY_EMAIL_FROM: 'notices@payments-gateway.local',
    SES_CONFIGURATION_SET: `${stage}-notices`,
    WHATSAPP_API_URL: whatsAppSimulator.url,
    WHATSAPP_PHONE_NUMBER_ID: whatsApp.phoneNumberId,
    WHATSAPP_TOKEN_SECRET_ID: names.whatsAppToken,
    STAGE: stage,
    // Sandbox webhooks may reach receivers on this machine (lib/webhooks/destinations.ts).
    WEBHOOKS_ALLOW_LOOPBACK: 'true',
    TABLE_NAME: `${stage}-payments-gateway`,
    SIGNING_KEYS_SECRET_ID: names.signingKeys,
    TOKEN_JWKS_SECRET_ID: names.tokenJwks,
    CURSOR_KEY_SECRET_ID: names.cursorKey,
    KEK_SECRET_ID_SANDBOX: names.kek.sandbox,
    KEK_SECRET_ID_PRODUCTION: names.kek.production,
    HORIZON_URL_SANDBOX: `http://127.0.0.1:${ledgerPorts.sandbox}`,
    HORIZON_URL_PRODUCTION: `http://127.0.0.1:${ledgerPorts.production}`,
    // The sandbox reserves' top-up asks the local ledger's friendbot (lib/ledger/sandbox-reserves.ts).
    FRIENDBOT_URL_SANDBOX: `http://127.0.0.1:${ledgerPorts.sandbox}/friendbot`,
    PROVIDER_URL_SANDBOX: `http://127.0.0.1:${providerPort}/sandbox`,
    PROVIDER_URL_PRODUCTION: `http://127.0.0.1:${providerPort}/production`,
    LOG_LEVEL: keptLevelOf(printLevel),
    POWERTOOLS_SERVICE_NAME: 'payments-gateway',
  };
  // The functions run in this process, as each would in its own Lambda: they read this environment.
  Object.assign(process.env, env);
  // Their one logger may have been made before (the level is read when it is): it takes this one.
  (await import('../lib/log.ts')).logger.setLogLevel(env.LOG_LEVEL as 'INFO');
  await ensureLocalSecrets(stage);
  await putLocalSecret(names.whatsAppToken, { accessToken: whatsApp.accessToken });

  await createTable(dynamo.endpoint, env.TABLE_NAME as string);
  // fauxqs writes queue URLs as sqs.<region>.localhost, which needs no DNS if the client keeps its endpoint.
  const sqsClient = new SQSClient({ useQueueUrlAsEndpoint: false });
  const ensured = await ensureQueues(sqsClient, stage);
  for (const [name, queue] of ensured) env[queueUrlVariable(name)] = queue.queueUrl;
  Object.assign(process.env, env);

  // Imported only now: these modules read their configuration at load time.
  const { seedLocalData } = await import('./seed.ts');
  const { tenant: seededTenant, genesis, simulated } = await seedLocalData();
  const { startLocalLedger } = await import('./ledger/index.ts');
  const { Networks } = await import('@stellar/stellar-sdk');
  const closeIntervalMs = ledgerCloseIntervalMs();
  const ledgerOf = async (environment: 'sandbox' | 'production', networkPassphrase: string) =>
    up(
      await startLocalLedger({
        port: ledgerPorts[environment],
        networkPassphrase,
        genesis: genesis[environment],
        closeIntervalMs,
      }),
      (l) => l.stop(),
    );
  const ledgers = await Promise.all([
    ledgerOf('sandbox', Networks.TESTNET),
    ledgerOf('production', Networks.PUBLIC),
  ]);

  const pollers: Poller[] = [];
  for (const definition of queues) {
    const queue = ensured.get(definition.name);
    if (!definition.worker || !queue) continue;
    const handler =
      (options.functionHost?.(`workers/${definition.worker}`, env) as SqsBatchHandler | undefined) ??
      ((await import(`../functions/workers/${definition.worker}.ts`)) as { handler: SqsBatchHandler })
        .handler;
    pollers.push(
      up(
        startPoller({
          sqs: sqsClient,
          queueUrl: queue.queueUrl,
          queueArn: queue.queueArn,
          batchSize: definition.batchSize,
          concurrency: definition.maxConcurrency,
          handler,
          functionName: definition.worker,
          ...(options.traffic && {
            onFailure: (failed: number, of: number, error?: unknown) =>
              options.traffic?.workerFailed(definition.worker as string, failed, of, error),
          }),
        }),
        (p) => p.stop(),
      ),
    );
  }

  // The outbox: the table's stream, read as Lambda's event source reads it, into the router.
  const streams = new DynamoDBStreamsClient({ endpoint: dynamo.endpoint });
  const routerFunction =
    (options.functionHost?.('streams/outbox', env) as StreamBatchHandler | undefined) ??
    ((await import('../functions/streams/outbox.ts')) as { handler: StreamBatchHandler }).handler;
  const { traffic } = options;
  const streamPoller = up(
    startStreamPoller({
      streams,
      streamArn: await tableStreamArn(dynamo.endpoint, env.TABLE_NAME as string),
      batchSize: outboxStream.batchSize,
      startingPosition: outboxStream.startingPosition,
      retryAttempts: outboxStream.retryAttempts,
      // As infra's FilterCriteria: only changes whose new image is of a type some row reads.
      filter: (record) => outboxItemTypes.includes(record.dynamodb?.NewImage?.type?.S ?? ''),
      // Every settlement, ended delivery and ended notice, notices included (no outbox row reads them).
      ...(traffic ? { observe: (records) => logSettlements(traffic, records) } : {}),
      handler: routerFunction,
      functionName: 'streams/outbox',
    }),
    (p) => p.stop(),
  );

  // The outbox's reconciler, on an interval as its schedule runs it in AWS.
  const reconciler = up(
    startSchedule({
      intervalMs: reconcilerIntervalMs(),
      handler:
        (options.functionHost?.('schedules/reconciler', env) as ScheduledHandler | undefined) ??
        ((await import('../functions/schedules/reconciler.ts')) as { handler: ScheduledHandler }).handler,
      functionName: 'schedules/reconciler',
    }),
    (r) => r.stop(),
  );

  const { startGateway } = await import('./gateway.ts');
  const { prepareLocalPortal } = await import('./portal.ts');
  const gateway: Server = up(
    await startGateway(
      options.port,
      GATEWAY_HOST,
      (bundleName) => options.functionHost?.(bundleName, env),
      traffic,
      await prepareLocalPortal(options.dataDir),
    ),
    closeServer,
  );
  const address = gateway.address();
  const port = typeof address === 'object' && address ? address.port : options.port;

  const { startProviderSimulator } = await import('./provider-simulator.ts');
  const { providerNotificationPath } = await import('../lib/providers/notification-path.ts');
  const providers = up(
    await startProviderSimulator({
      port: providerPort,
      connectors: simulated,
      notificationUrl: (environment, connectorId) =>
        `http://127.0.0.1:${port}${providerNotificationPath(environment, connectorId)}`,
      completeAfterMs: providerCompleteAfterMs(),
    }),
    (p) => p.stop(),
  );

  // Functions invoked by name: the admin CLI's ledger admin function.
  const { startLocalLambda } = await import('./lambda-service.ts');
  const lambda = up(
    await startLocalLambda(
      new Map([
        [
          LEDGER_ADMIN_FUNCTION,
          async () =>
            (options.functionHost?.('admin/ledger-accounts', env) as InvokedHandler | undefined) ??
            (await import('../functions/admin/ledger-accounts.ts')).handler,
        ],
      ]),
    ),
    (l) => l.stop(),
  );
  env.AWS_ENDPOINT_URL_LAMBDA = lambda.endpoint;
  env.LEDGER_ADMIN_FUNCTION = LEDGER_ADMIN_FUNCTION;
  Object.assign(process.env, env);

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    horizonUrl: env.HORIZON_URL_SANDBOX as string,
    dynamoDbPid: dynamo.pid,
    dataDir: options.dataDir,
    friendbotUrl: `${env.HORIZON_URL_SANDBOX}/friendbot`,
    providerUrl: `http://127.0.0.1:${providerPort}`,
    sesUrl: ses.endpoint,
    whatsAppUrl: whatsAppSimulator.url,
    env,
    seededTenant,
    stop: async () => {
      await new Promise<void>((resolve) => {
        gateway.close(() => resolve());
        gateway.closeAllConnections();
      });
      await Promise.all([...pollers.map((p) => p.stop()), streamPoller.stop(), reconciler.stop()]);
      sqsClient.destroy();
      streams.destroy();
      await Promise.all([
        ...ledgers.map((l) => l.stop()),
        providers.stop(),
        lambda.stop(),
        secrets.stop(),
        ses.stop(),
        whatsAppSimulator.stop(),
        sqs.stop(),
        dynamo.stop(),
      ]);
      await output.stop();
    },
  };
}
